#!/usr/bin/env python3
"""Sign-in with service-auth in Python, standard library only: a login page with the embed from
the CDN, the controller of the spec (section 4), and a page only a signed-in user sees.

  SERVICE_URL=http://127.0.0.1:8081 SERVICE_KEY=... SERVICE_SECRET=... python3 examples/python/app.py

(`npx @service-auth/mock` starts a local mock service and prints these three lines.) PORT (default
3000; 0 takes a free one) and SERVICE_AUTH_CDN, where the embed's files are, change the defaults:
`python3 examples/cdn.py` serves this repository's build, for SERVICE_AUTH_CDN=http://127.0.0.1:8090.
The login page pins the files to a version with their integrity hashes, as the package's README
does (`npm run readme:sri` renews them when the build changes): copy them from there.
"""
import base64, hashlib, hmac, json, os, secrets, sys, time, urllib.error, urllib.parse, urllib.request
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SERVICE_URL, KEY, SECRET = (os.environ.get(name, '') for name in ('SERVICE_URL', 'SERVICE_KEY', 'SERVICE_SECRET'))
CDN = os.environ.get('SERVICE_AUTH_CDN', 'https://cdn.service-auth.example')
USERS = {'ada@example.com': {'name': 'Ada'}}  # your user store: who may sign in
SESSIONS = {}  # session id -> user; use your real session store
# Every page refuses to be framed by another site (clickjacking); the login page says what it loads.
EVERY_PAGE = "frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
LOGIN_PAGE = f"default-src 'self'; script-src {CDN}; style-src {CDN}; img-src 'self' data:; connect-src 'self' {SERVICE_URL}; {EVERY_PAGE}"


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b'=').decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + '=' * (-len(text) % 4))


def hs256(signing_input):
    """HMAC-SHA256 with the API secret, Base64-decoded (spec section 5)."""
    return hmac.new(base64.b64decode(SECRET), signing_input.encode(), hashlib.sha256).digest()


def verify(token):
    """Steps 2 and 3: an HS256 JWT signed with the API secret, not expired; its jti, sub and otp."""
    header, payload, signature = token.split('.')
    if json.loads(unb64url(header)).get('alg') != 'HS256' or not hmac.compare_digest(hs256(f'{header}.{payload}'), unb64url(signature)):
        raise ValueError('not signed with this secret')
    claims = json.loads(unb64url(payload))
    if not isinstance(claims.get('exp'), (int, float)) or claims['exp'] < time.time() - 5:
        raise ValueError('expired')
    if not all(isinstance(claims.get(name), str) and claims[name] for name in ('jti', 'sub', 'otp')):
        raise ValueError('no jti, sub or otp')
    return claims


class NoRedirect(urllib.request.HTTPRedirectHandler):
    """The service's API does not redirect. Followed, a 302 would turn the confirmation into a GET
    elsewhere, with the signed Authorization header, and that place's 200 would pass for the
    service's: a redirect is an answer like any other than 200, a refusal."""
    def redirect_request(self, *args):
        return None


CONFIRM = urllib.request.build_opener(NoRedirect)


def authenticate(identifier, challenge, otp):
    """Step 5: confirm at the service, signed as section 5 says; its status (an OSError when it does not answer)."""
    url = f"{SERVICE_URL.rstrip('/')}/v1/entity/identities/{urllib.parse.quote(identifier, safe='')}/authenticate"
    body = json.dumps({'challenge': challenge, 'otp': otp}).encode()
    now = int(time.time())
    claims = {'iss': KEY, 'aud': SERVICE_URL, 'iat': now, 'nbf': now, 'exp': now + 10, 'method': 'POST', 'url': url, 'bodyHash': hashlib.sha256(body).hexdigest()}
    signing_input = b64url(json.dumps({'alg': 'HS256', 'typ': 'JWT'}).encode()) + '.' + b64url(json.dumps(claims).encode())
    headers = {'Authorization': f'Bearer {signing_input}.{b64url(hs256(signing_input))}', 'Content-Type': 'application/json'}
    try:
        with CONFIRM.open(urllib.request.Request(url, body, headers, method='POST'), timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


class App(BaseHTTPRequestHandler):
    def answer(self, status, body='', headers=None, policy=EVERY_PAGE):
        self.send_response(status)
        for name, value in {'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': policy, 'X-Frame-Options': 'DENY', **(headers or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body.encode())

    def refuse(self, status, detail):
        self.answer(status, json.dumps({'title': self.responses[status][0], 'status': status, 'detail': detail}), {'Content-Type': 'application/problem+json'})

    def session(self):
        cookies = dict(part.strip().split('=', 1) for part in self.headers.get('Cookie', '').split(';') if '=' in part)
        return cookies.get('session')

    def user(self):
        return SESSIONS.get(self.session())

    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        if path == '/login':
            self.answer(200, f'''<!doctype html>
<html lang="en"><link rel="icon" href="data:,"><title>Sign in</title>
<link rel="stylesheet" href="{CDN}/service-auth-1.0.0.css"
      integrity="sha384-0zEG9HAXlFLhHVjWl6iGgOb0D6FJBIr8wjVzRLXrPbd9G9wkn/+2MQm+iz5Yzag0" crossorigin="anonymous">
<h1>Sign in</h1>
<div data-service-auth data-service-key="{escape(KEY)}" data-service-auth-url="/auth/controller" data-service-api="{escape(SERVICE_URL)}"></div>
<script src="{CDN}/service-auth-1.0.0.js"
        integrity="sha384-DMoIsRwxUOnXfVMLK8cDz9hRqWyTbOK/PGD2pxhXEMrlGxG1wiM8qHUPVuH0dAth" crossorigin="anonymous" defer></script></html>''', policy=LOGIN_PAGE)
        elif path == '/auth/controller':
            self.controller()
        elif path == '/welcome' and self.user():
            self.answer(200, f'''<!doctype html>
<html lang="en"><link rel="icon" href="data:,"><title>Welcome</title>
<h1>Signed in as {escape(self.user()['name'])}</h1>
<form method="post" action="/logout"><button>Sign out</button></form></html>''')
        elif path == '/welcome':
            self.answer(302, headers={'Location': '/login'})
        else:
            self.answer(404)

    def controller(self):
        # The embed calls with this header; another site's page cannot add it without CORS.
        if self.headers.get('X-Requested-With') != 'XMLHttpRequest':
            return self.refuse(400, 'Only the embed calls this.')
        # And from this site's own pages: the browser says whose page sent it (no header: no browser).
        if self.headers.get('Sec-Fetch-Site', 'same-origin') != 'same-origin':
            return self.refuse(403, 'Only the embed on this site calls this.')
        try:  # steps 1 to 3
            claims = verify(self.headers.get('X-Service-Auth', ''))
        except Exception:  # whatever is wrong with it
            return self.refuse(401, 'The token is not valid.')
        user = USERS.get(claims['sub'])  # step 4
        if not user:
            return self.refuse(403, 'This user may not sign in here.')
        try:  # step 5
            status = authenticate(claims['sub'], claims['jti'], claims['otp'])
        except OSError:  # no answer in time, or none at all
            return self.refuse(502, 'The sign-in service cannot be reached.')
        if status != 200:
            return self.refuse(401 if status in (401, 404) else 502, f'The sign-in service answered {status}.')
        session = secrets.token_urlsafe(32)  # step 6: a new session id, and on to the protected page
        SESSIONS[session] = user
        # Secure: browsers take it from http://localhost and 127.0.0.1 too, and it never goes out over plain HTTP.
        self.answer(302, headers={'Location': '/welcome', 'Set-Cookie': f'session={session}; Path=/; HttpOnly; Secure; SameSite=Lax', 'Cache-Control': 'no-store'})

    def do_POST(self):
        if self.path == '/logout':
            SESSIONS.pop(self.session(), None)
            return self.answer(303, headers={'Location': '/login', 'Set-Cookie': 'session=; Path=/; Max-Age=0'})
        self.answer(404)


if __name__ == '__main__':
    if not (SERVICE_URL and KEY and SECRET):
        sys.exit('Set SERVICE_URL, SERVICE_KEY and SERVICE_SECRET (npx @service-auth/mock prints them).')
    server = ThreadingHTTPServer(('127.0.0.1', int(os.environ.get('PORT', '3000'))), App)
    print(f'http://127.0.0.1:{server.server_port}/login', flush=True)
    server.serve_forever()
