<?php
// Sign-in with service-auth in PHP, with php-cli alone (no Composer, no extension beyond the
// defaults): a login page with the embed from the CDN, the controller of the spec (section 4), and
// a page only a signed-in user sees. It is a router script for PHP's built-in server:
//
//   SERVICE_URL=http://127.0.0.1:8081 SERVICE_KEY=... SERVICE_SECRET=... php -S 127.0.0.1:3000 examples/php/app.php
//
// (`npx @service-auth/mock` starts a local mock service and prints these three lines.)
// SERVICE_AUTH_CDN, where the embed's files are, changes the default: `python3 examples/cdn.py`
// serves this repository's build, for SERVICE_AUTH_CDN=http://127.0.0.1:8090. The login page pins
// the files to a version with their integrity hashes, as the package's README does (`npm run
// readme:sri` renews them when the build changes): copy them from there.
$serviceUrl = getenv('SERVICE_URL') ?: '';
$key = getenv('SERVICE_KEY') ?: '';
$secret = base64_decode(getenv('SERVICE_SECRET') ?: '', true);  // the secret's bytes (spec section 5)
$cdn = getenv('SERVICE_AUTH_CDN') ?: 'https://cdn.service-auth.example';
$users = ['ada@example.com' => ['name' => 'Ada']];  // your user store: who may sign in

function b64url(string $data): string { return rtrim(strtr(base64_encode($data), '+/', '-_'), '='); }
function unb64url(string $text): string { return (string) base64_decode(strtr($text, '-_', '+/')); }

/** Steps 2 and 3: an HS256 JWT signed with the API secret, not expired; its claims, or null. */
function verify(string $token, string $secret): ?array {
    $parts = explode('.', $token);
    if (count($parts) !== 3) return null;
    [$header, $payload, $signature] = $parts;
    if ((json_decode(unb64url($header), true)['alg'] ?? null) !== 'HS256') return null;
    if (!hash_equals(hash_hmac('sha256', "$header.$payload", $secret, true), unb64url($signature))) return null;
    $claims = json_decode(unb64url($payload), true);
    if (!is_array($claims) || !is_numeric($claims['exp'] ?? null) || $claims['exp'] < time() - 5) return null;
    foreach (['jti', 'sub', 'otp'] as $name) if (!is_string($claims[$name] ?? null) || $claims[$name] === '') return null;
    return $claims;
}

/** Step 5: confirm at the service, signed as section 5 says; its status, 0 when it does not answer. */
function authenticate(string $identifier, string $challenge, string $otp): int {
    global $serviceUrl, $key, $secret;
    $url = rtrim($serviceUrl, '/') . '/v1/entity/identities/' . rawurlencode($identifier) . '/authenticate';
    $body = json_encode(['challenge' => $challenge, 'otp' => $otp]);
    $now = time();
    $claims = ['iss' => $key, 'aud' => $serviceUrl, 'iat' => $now, 'nbf' => $now, 'exp' => $now + 10, 'method' => 'POST', 'url' => $url, 'bodyHash' => hash('sha256', $body)];
    $jwt = b64url(json_encode(['alg' => 'HS256', 'typ' => 'JWT'])) . '.' . b64url(json_encode($claims));
    $jwt .= '.' . b64url(hash_hmac('sha256', $jwt, $secret, true));
    $headers = "Authorization: Bearer $jwt\r\nContent-Type: application/json";
    // No redirect followed: the service's API does not redirect, and a redirect would take the
    // signed Authorization header elsewhere. Its status is the answer, a refusal.
    $http = ['method' => 'POST', 'header' => $headers, 'content' => $body, 'timeout' => 5, 'ignore_errors' => true, 'follow_location' => 0];
    if (@file_get_contents($url, false, stream_context_create(['http' => $http])) === false) return 0;
    return (int) (explode(' ', $http_response_header[0] ?? '')[1] ?? 0);
}

function problem(int $status, string $detail): void {
    http_response_code($status);
    header('Content-Type: application/problem+json');
    echo json_encode(['status' => $status, 'detail' => $detail]);
}

// The session cookie: not for script (HttpOnly), never over plain HTTP (Secure: browsers take it
// from http://localhost and 127.0.0.1 too), nor sent by other sites' requests (SameSite); strict
// mode replaces an id the app did not make, rather than adopt it.
ini_set('session.use_strict_mode', '1');
session_set_cookie_params(['path' => '/', 'httponly' => true, 'secure' => true, 'samesite' => 'Lax']);
session_start();
// Every page refuses to be framed by another site (clickjacking); the login page says what it loads.
$everyPage = "frame-ancestors 'none'; base-uri 'none'; object-src 'none'";
header("Content-Security-Policy: $everyPage");
header('X-Frame-Options: DENY');
$path = parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);

if ($serviceUrl === '' || $key === '' || !$secret) {
    http_response_code(500);
    error_log('Set SERVICE_URL, SERVICE_KEY and SERVICE_SECRET (npx @service-auth/mock prints them).');
} elseif ($path === '/login') {
    header("Content-Security-Policy: default-src 'self'; script-src $cdn; style-src $cdn; img-src 'self' data:; connect-src 'self' $serviceUrl; $everyPage");
    $attributes = sprintf('data-service-key="%s" data-service-api="%s"', htmlspecialchars($key), htmlspecialchars($serviceUrl)); ?>
<!doctype html>
<html lang="en"><link rel="icon" href="data:,"><title>Sign in</title>
<link rel="stylesheet" href="<?= $cdn ?>/service-auth-1.0.0.css"
      integrity="sha384-0zEG9HAXlFLhHVjWl6iGgOb0D6FJBIr8wjVzRLXrPbd9G9wkn/+2MQm+iz5Yzag0" crossorigin="anonymous">
<h1>Sign in</h1>
<div data-service-auth <?= $attributes ?> data-service-auth-url="/auth/controller"></div>
<script src="<?= $cdn ?>/service-auth-1.0.0.js"
        integrity="sha384-DMoIsRwxUOnXfVMLK8cDz9hRqWyTbOK/PGD2pxhXEMrlGxG1wiM8qHUPVuH0dAth" crossorigin="anonymous" defer></script></html>
<?php
} elseif ($path === '/auth/controller') {
    // The embed calls with this header; another site's page cannot add it without CORS.
    if (($_SERVER['HTTP_X_REQUESTED_WITH'] ?? '') !== 'XMLHttpRequest') {
        problem(400, 'Only the embed calls this.');
    } elseif (($_SERVER['HTTP_SEC_FETCH_SITE'] ?? 'same-origin') !== 'same-origin') {  // the browser says whose page sent it
        problem(403, 'Only the embed on this site calls this.');
    } elseif (!$claims = verify($_SERVER['HTTP_X_SERVICE_AUTH'] ?? '', $secret)) {  // steps 1 to 3
        problem(401, 'The token is not valid.');
    } elseif (!$user = $users[$claims['sub']] ?? null) {  // step 4
        problem(403, 'This user may not sign in here.');
    } elseif (($status = authenticate($claims['sub'], $claims['jti'], $claims['otp'])) !== 200) {  // step 5
        $status === 0 ? problem(502, 'The sign-in service cannot be reached.') : problem(in_array($status, [401, 404]) ? 401 : 502, "The sign-in service answered $status.");
    } else {
        session_regenerate_id(true);  // step 6: a new session id, and on to the protected page
        $_SESSION['user'] = $user;
        header('Cache-Control: no-store');
        header('Location: /welcome', true, 302);
    }
} elseif ($path === '/welcome' && isset($_SESSION['user'])) { ?>
<!doctype html>
<html lang="en"><link rel="icon" href="data:,"><title>Welcome</title>
<h1>Signed in as <?= htmlspecialchars($_SESSION['user']['name']) ?></h1>
<form method="post" action="/logout"><button>Sign out</button></form></html>
<?php
} elseif ($path === '/welcome') {
    header('Location: /login', true, 302);
} elseif ($path === '/logout' && $_SERVER['REQUEST_METHOD'] === 'POST') {
    session_destroy();
    setcookie(session_name(), '', ['expires' => 1, 'path' => '/']);
    header('Location: /login', true, 303);
} else {
    http_response_code(404);
}
