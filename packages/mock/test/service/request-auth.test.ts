// @vitest-environment node
// Spec section 5 over real HTTP: good request tokens pass bare and as Bearer; a corpus of bad
// ones all get 401 (never a 500), change nothing, and a key without the permission gets 403.
import { createHmac, randomBytes } from 'node:crypto'
import { request } from 'node:http'
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { MAX_TOKEN_LENGTH } from '../../src/service/access/request-auth.js'
import { newKey, problemOf, sha256Hex, signRequest, useService, type SignOptions } from './helpers.js'

const readOnly = newKey('read-only')
// evil.example:4444 is let through the Host check, to show that what a Host says never counts for a signature.
const service = useService({ allowedHosts: ['evil.example:4444'] }, [{ key: readOnly.key, secret: readOnly.secret, permissions: ['identities:read'] }])

const ENROLL = '/v1/entity/identities/enroll'
const enrollBody = JSON.stringify({ identifier: 'ada@example.com' })
const b64url = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url')
const now = () => Math.floor(Date.now() / 1000)
const goodClaims = () => ({
  iss: service.key.key,
  aud: service.url,
  method: 'POST',
  url: service.url + ENROLL,
  bodyHash: sha256Hex(enrollBody),
  iat: now(),
  nbf: now(),
  exp: now() + 10,
})

/** HS256 by hand, for the tokens jose rightly refuses to make (an unknown crit, a payload that is not JSON). */
function handSigned(header: object, payload: string | object): string {
  const input = `${b64url(header)}.${b64url(payload)}`
  return `${input}.${createHmac('sha256', Buffer.from(service.key.secret, 'base64')).update(input).digest('base64url')}`
}

/** A POST enroll signed with `changes` to the well-behaved token. */
const token = (changes: Partial<SignOptions> = {}) =>
  signRequest({ key: service.key, method: 'POST', url: service.url + ENROLL, body: enrollBody, aud: service.url, ...changes })

const post = (authorization: string | null) =>
  service.api('POST', ENROLL, { rawBody: enrollBody, authorization, headers: { 'Content-Type': 'application/json' } })

describe('a well-signed request', () => {
  it('passes with the token bare, after "Bearer " and after "bearer "', async () => {
    expect((await post(await token())).status).toBe(201)
    expect((await post('Bearer ' + (await token()))).status).toBe(200)
    expect((await post('bearer ' + (await token()))).status).toBe(200)
  })

  it('passes with aud written with a trailing slash, or as a list naming the service', async () => {
    expect((await post(await token({ aud: service.url + '/' }))).status).toBe(201)
    expect((await post(await token({ claims: { aud: ['https://other.example', service.url] } }))).status).toBe(200)
  })

  it('passes with a query string signed as part of the url', async () => {
    const url = '/v1/entity/identities?page=1&limit=5'
    expect((await service.api('GET', url)).status).toBe(200)
  })

  it('passes when it claims to live the most accepted, 60 s', async () => {
    expect((await post(await token({ claims: { exp: now() + 60 } }))).status).toBe(201)
  })

  it('passes again when replayed within its minute: there is no replay cache (the mock reference says so)', async () => {
    const once = await token()
    expect((await post(once)).status).toBe(201)
    expect((await post(once)).status).toBe(200)
  })

  it('passes within the 5 s leeway on exp and nbf', async () => {
    expect((await post(await token({ claims: { exp: now() - 3 } }))).status).toBe(201)
    expect((await post(await token({ claims: { nbf: now() + 3, iat: now() + 3 } }))).status).toBe(200)
  })
})

/** Each entry: why it is bad, and the Authorization header value that carries it. */
const BAD_TOKENS: [string, () => Promise<string | null>][] = [
  ['no Authorization header', async () => null],
  ['an empty header', async () => ''],
  ['"Bearer" and nothing else', async () => 'Bearer '],
  ['garbage', async () => 'not-a-jwt'],
  ['another scheme (Basic)', async () => 'Basic ' + Buffer.from('user:pass').toString('base64')],
  ['alg none, unsigned', async () => new UnsecuredJWT(goodClaims()).encode()],
  [
    'alg none with the signature of an HS256 token kept',
    async () => {
      const [, payload, signature] = (await token()).split('.')
      return `${b64url({ alg: 'none', typ: 'JWT' })}.${payload}.${signature}`
    },
  ],
  ['signed with a wrong secret', async () => token({ signingKey: randomBytes(32) })],
  ['signed with the Base64 text instead of the decoded secret', async () => token({ signingKey: new TextEncoder().encode(service.key.secret) })],
  ['iss naming no known key', async () => token({ claims: { iss: 'nobody' } })],
  ["iss of another key, signed with this one's secret", async () => token({ claims: { iss: readOnly.key } })],
  ['HS512 with the right secret', async () => token({ header: { alg: 'HS512' } })],
  [
    'RS256 with a key of its own',
    async () => {
      const { privateKey } = await generateKeyPair('RS256')
      return new SignJWT(goodClaims()).setProtectedHeader({ alg: 'RS256' }).sign(privateKey)
    },
  ],
  [
    'ES256 with the verifying key embedded in its own jwk header',
    async () => {
      const { privateKey, publicKey } = await generateKeyPair('ES256')
      return new SignJWT(goodClaims()).setProtectedHeader({ alg: 'ES256', jwk: await exportJWK(publicKey) }).sign(privateKey)
    },
  ],
  ['expired', async () => token({ claims: { iat: now() - 60, nbf: now() - 60, exp: now() - 30 } })],
  ['not yet valid (nbf ahead)', async () => token({ claims: { nbf: now() + 60, exp: now() + 70 } })],
  ['issued in the future', async () => token({ claims: { iat: now() + 60, exp: now() + 70 } })],
  ['issued too long ago, with a far exp', async () => token({ claims: { iat: now() - 3600, nbf: now() - 3600, exp: now() + 3600 } })],
  // The replay window is a minute: the spec's tokens live about 10 s.
  ['issued 70 s ago, still within its exp', async () => token({ claims: { iat: now() - 70, nbf: now() - 70, exp: now() + 10 } })],
  ['fresh, but claiming to live 61 s', async () => token({ claims: { exp: now() + 61 } })],
  ['fresh, but claiming to live a day', async () => token({ claims: { exp: now() + 86_400 } })],
  ['wrong aud', async () => token({ aud: 'https://api.service-auth.example' })],
  ['aud as a list without the service', async () => token({ claims: { aud: ['https://a.example', 'https://b.example'] } })],
  ['wrong method', async () => token({ method: 'GET' })],
  ['method in lower case', async () => token({ method: 'post' })],
  ['url of another endpoint', async () => token({ url: service.url + '/v1/entity/identities' })],
  ['url with a query the request lacks', async () => token({ url: service.url + ENROLL + '?x=1' })],
  ['url on another host', async () => token({ url: 'https://evil.example' + ENROLL })],
  ['url that is not a URL', async () => token({ url: 'enroll' })],
  ['bodyHash of another body', async () => token({ body: '{"identifier":"eve@example.com"}' })],
  ['bodyHash in upper case', async () => token({ claims: { bodyHash: sha256Hex(enrollBody).toUpperCase() } })],
  ['bodyHash as base64', async () => token({ claims: { bodyHash: Buffer.from(sha256Hex(enrollBody), 'hex').toString('base64') } })],
  ...(['iss', 'aud', 'iat', 'nbf', 'exp', 'method', 'url', 'bodyHash'] as const).map((claim): [string, () => Promise<string>] => [
    `no ${claim} claim`,
    async () => token({ claims: { [claim]: undefined } }),
  ]),
  ['exp as text', async () => token({ claims: { exp: String(now() + 10) } })],
  ['method as a number', async () => token({ claims: { method: 1 } })],
  ['url as an object', async () => token({ claims: { url: { href: service.url + ENROLL } } })],
  [
    'a tampered payload',
    async () => {
      const [header, , signature] = (await token()).split('.')
      return `${header}.${b64url({ ...goodClaims(), bodyHash: sha256Hex('{}') })}.${signature}`
    },
  ],
  ['a payload that is not JSON, correctly signed', async () => handSigned({ alg: 'HS256', typ: 'JWT' }, 'hello')],
  ['an unknown critical header, correctly signed', async () => handSigned({ alg: 'HS256', crit: ['x-must'], 'x-must': true }, goodClaims())],
  ['an unencoded payload (b64: false), correctly signed', async () => handSigned({ alg: 'HS256', b64: false, crit: ['b64'] }, goodClaims())],
  ['two tokens in one header', async () => `${await token()} ${await token()}`],
  ['a five-part (JWE-shaped) token', async () => `${await token()}.AAAA.BBBB`],
  ['an oversized token, well signed', async () => token({ claims: { padding: 'x'.repeat(MAX_TOKEN_LENGTH * 2) } })],
  ['a 40 KB header', async () => 'Bearer ' + 'A'.repeat(40_000)],
]

describe('a bad request token', () => {
  it('the corpus has more than 20 kinds of bad token', () => {
    expect(BAD_TOKENS.length).toBeGreaterThanOrEqual(20)
  })

  it.each(BAD_TOKENS)('%s: 401 problem JSON, and nothing is enrolled', async (_, make) => {
    const res = await post(await make())
    expect(res.status).toBe(401)
    expect(res.headers.get('www-authenticate')).toBe('Bearer')
    const problem = await problemOf(res)
    expect(problem).toMatchObject({ title: 'Unauthorized', status: 401, instance: ENROLL })
    expect(await (await service.api('GET', '/v1/entity/identities')).json()).toEqual([])
  })
})

describe('permissions', () => {
  it('a key without the permission gets 403, with one gets through', async () => {
    const denied = await service.api('POST', ENROLL, { body: { identifier: 'ada@example.com' }, key: readOnly })
    expect(denied.status).toBe(403)
    expect((await problemOf(denied)).detail).toMatch(/may not enroll/)
    expect((await service.api('GET', '/v1/entity/identities', { key: readOnly })).status).toBe(200)
  })

  it('checks the signature before the permission: a bad token of a read-only key is 401', async () => {
    const res = await service.api('POST', ENROLL, { body: {}, key: readOnly, claims: { bodyHash: 'x' } })
    expect(res.status).toBe(401)
  })
})

describe('the Host header', () => {
  const EVIL = 'http://evil.example:4444'

  /** POST enroll to the service's own address, with the Host header the client chose; the status. */
  const postWithHost = (host: string, authorization: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        service.url + ENROLL,
        { method: 'POST', headers: { Host: host, 'Content-Type': 'application/json', Authorization: authorization } },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        },
      )
      req.once('error', reject)
      req.end(enrollBody)
    })

  it('cannot choose what a signature may name: aud and url for the Host sent are 401, nothing is enrolled', async () => {
    const forEvil = await token({ aud: EVIL, url: EVIL + ENROLL })
    expect(await postWithHost('evil.example:4444', forEvil)).toBe(401)
    expect(await postWithHost('evil.example:4444', await token({ url: EVIL + ENROLL }))).toBe(401)
    expect(await postWithHost('evil.example:4444', await token({ aud: EVIL }))).toBe(401)
    expect(await (await service.api('GET', '/v1/entity/identities')).json()).toEqual([])
  })

  it("does not matter to a request signed for the service's own URL", async () => {
    expect(await postWithHost('evil.example:4444', await token())).toBe(201)
  })
})
