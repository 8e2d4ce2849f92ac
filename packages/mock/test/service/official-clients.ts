// The service's official clients, as they appear on the wire: the exact requests of the PHP
// client 1.0.5 (`Almefy\Client::doRequest`), the Node client (`createApiRequest`, axios) and the
// incumbent browser embed (its worker's createChallenge), so the mock's tests replay what
// integrators' code sends without needing PHP or those packages. Sent with node:http, so the
// request line and headers are exactly these, and nothing fetch would add or normalise.
import { createHash } from 'node:crypto'
import { request } from 'node:http'
import { SignJWT } from 'jose'
import type { TestKey } from './helpers.js'

export interface WireAnswer {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  /** The body parsed as JSON; undefined when empty or not JSON. Untyped: tests check it field by field. */
  json: any
}

export interface WireRequest {
  method: string
  /** The service's address: where the bytes go (behind a proxy, not the URL the client signs). */
  serviceUrl: string
  /** The request target exactly as sent: `//v1/...` from a base URL with a trailing slash. */
  target: string
  headers: Record<string, string>
  body: string
}

/** Sends the request as it is. */
export function send({ method, serviceUrl, target, headers, body }: WireRequest): Promise<WireAnswer> {
  const { hostname, port } = new URL(serviceUrl)
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, method, path: target, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: parsed(text) }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

function parsed(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined
  } catch {
    return undefined
  }
}

/** PHP's `urlencode`: only letters, digits and `-_.` stay; a space becomes `+`. */
export const phpUrlencode = (text: string) =>
  encodeURIComponent(text)
    .replace(/[!'()*~]/g, (char) => '%' + char.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, '+')

const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex')
const decodedSecret = (key: TestKey) => new Uint8Array(Buffer.from(key.secret, 'base64'))

export interface ClientSetup {
  key: TestKey
  /** The base URL the integrator configured, as it is: a trailing slash stays (the clients keep it). */
  api: string
  /** Where the service listens; default `api`. */
  serviceUrl?: string
}

/**
 * What reaches the service's request line: the client's URL after its base, leading slashes and
 * all (`//v1/...` from a base with a trailing slash), as a proxy that strips the base's path passes it on.
 */
const targetOf = (api: string, path: string) => (api + path).slice(api.replace(/\/$/, '').length)

/**
 * PHP client 1.0.5: `sprintf('%s/v1/...', $api)`, so a base URL ending in `/` gives `//v1/...`;
 * the body is `json_encode` of the data (`''` for none, empty arrays included); the token is
 * built by hand with the header `{"typ":"JWT","alg":"HS256"}` and the claims in this order.
 */
export function phpClient({ key, api, serviceUrl = api }: ClientSetup) {
  const call = async (method: string, path: string, data?: unknown): Promise<WireAnswer> => {
    const url = `${api}${path}`
    const empty =
      data === undefined || data === null || (Array.isArray(data) && data.length === 0) || (typeof data === 'object' && Object.keys(data).length === 0)
    // json_encode with JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE is JSON.stringify for these values.
    const body = empty ? '' : JSON.stringify(data)
    const now = Math.floor(Date.now() / 1000)
    const claims = { iss: key.key, aud: api, iat: now, nbf: now, exp: now + 10, method, url, bodyHash: sha256Hex(body) }
    const token = await new SignJWT(claims).setProtectedHeader({ typ: 'JWT', alg: 'HS256' }).sign(decodedSecret(key))
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: `Bearer ${token}`,
      'User-Agent': 'Almefy PHP Client 1.0.5 (PHP 8.2.26)',
      'X-Client-Version': '1.0.5',
      'X-Client-Time': String(now),
    }
    if (['POST', 'PUT', 'PATCH'].includes(method)) {
      headers['Content-Type'] = 'application/json; charset=utf-8'
      // mb_strlen: characters, which is the byte count only for ASCII bodies like these.
      headers['Content-Length'] = String(body.length)
    }
    return send({ method, serviceUrl, target: targetOf(api, path), headers, body })
  }
  const encode = phpUrlencode
  return {
    call,
    check: () => call('POST', '/v1/entity/check', { message: 'ping' }),
    getConfiguration: () => call('GET', '/v1/entity/configuration'),
    setConfiguration: (settings: Record<string, unknown>) => call('PATCH', '/v1/entity/configuration', settings),
    /** The client's defaults, with `options` over them, and the identifier last. */
    enrollIdentity: (identifier: string, options: Record<string, unknown> = {}) =>
      call('POST', '/v1/entity/identities/enroll', {
        enrollmentType: 'ONE_STEP_ENROLLMENT',
        nickname: null,
        sendEmail: false,
        sendEmailTo: '',
        sendEmailLocale: 'en_US',
        role: 'ROLE_USER',
        timeout: 3600,
        ...options,
        identifier,
      }),
    getIdentities: () => call('GET', '/v1/entity/identities'),
    getIdentity: (identifier: string) => call('GET', `/v1/entity/identities/${encode(identifier)}`),
    renameIdentity: (from: string, to: string) => call('PATCH', `/v1/entity/identities/${encode(from)}/rename`, { identifier: to }),
    deleteIdentity: (identifier: string) => call('DELETE', `/v1/entity/identities/${encode(identifier)}`),
    deleteToken: (id: string) => call('DELETE', `/v1/entity/tokens/${id}`),
    authenticate: (claims: { jti: string; sub: string; otp: string }) =>
      call('POST', `/v1/entity/identities/${encode(claims.sub)}/authenticate`, { challenge: claims.jti, otp: claims.otp }),
    getSession: (id: string) => call('GET', `/v1/entity/sessions/${id}`),
    getSessions: () => call('GET', '/v1/entity/sessions'),
    updateSessions: (sessions: { id: string; updatedAt: string | null; expiresAt: string | null }[]) =>
      call(
        'PATCH',
        '/v1/entity/sessions',
        sessions.map((session) => ({ id: session.id, clientSessionUpdatedAt: session.updatedAt, clientSessionExpiresAt: session.expiresAt })),
      ),
    logoutSession: (id: string) => call('DELETE', `/v1/entity/sessions/${id}`),
  }
}

/**
 * The Node client (almefy-node-client): axios with `Content-Type: application/json;
 * charset=utf-8` on every request, GET and DELETE included; the body is the JSON text or none;
 * jsonwebtoken's header `{"alg":"HS256","typ":"JWT"}`; `bodyHash` of no body is the SHA-256 of
 * ''. It puts the token's `sub` into the authenticate path without encoding it.
 */
export function nodeClient({ key, api, serviceUrl = api }: ClientSetup) {
  const call = async (method: string, path: string, body = ''): Promise<WireAnswer> => {
    const now = Math.floor(Date.now() / 1000)
    const claims = { iss: key.key, aud: api, iat: now, nbf: now, exp: now + 10, method, url: api + path, bodyHash: sha256Hex(body) }
    const token = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(decodedSecret(key))
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Content-Type': 'application/json; charset=utf-8',
      'User-Agent': `Almefy Node Client 0.0.1 (node version ${process.version})`,
      'X-Client-Version': '0.0.1',
      Authorization: `Bearer ${token}`,
    }
    // axios counts the bytes of a body it sends.
    if (body) headers['Content-Length'] = String(Buffer.byteLength(body))
    return send({ method, serviceUrl, target: targetOf(api, path), headers, body })
  }
  return {
    call,
    check: () => call('POST', '/v1/entity/check', JSON.stringify({ message: 'ping' })),
    setConfiguration: (configuration: { websiteUrl?: string; authenticationUrl?: string; supportSessions?: boolean }) =>
      call(
        'PATCH',
        '/v1/entity/configuration',
        JSON.stringify({
          websiteUrl: configuration.websiteUrl ? configuration.websiteUrl : null,
          authenticationUrl: configuration.authenticationUrl ? configuration.authenticationUrl : null,
          supportSessions: configuration.supportSessions ? configuration.supportSessions : false,
        }),
      ),
    listIdentities: () => call('GET', '/v1/entity/identities?limit=500'),
    enrollIdentity: (identifier: string, options: Record<string, unknown> = {}) =>
      call(
        'POST',
        '/v1/entity/identities/enroll',
        JSON.stringify({
          enrollmentType: 'ONE_STEP_ENROLLMENT',
          nickname: null,
          sendEmail: false,
          sendEmailTo: '',
          sendEmailLocale: 'en_US',
          ...options,
          identifier,
        }),
      ),
    authenticate: (claims: { jti: string; sub: string; otp: string }) =>
      call('POST', `/v1/entity/identities/${claims.sub}/authenticate`, JSON.stringify({ challenge: claims.jti, otp: claims.otp })),
  }
}

/**
 * The incumbent embed's challenge request (axios from the page): `{key, authType, returnAuthImageData: true}`,
 * `authType` from `data-…-auth-type`, `jwt` unless the integrator chose otherwise.
 */
export function incumbentCreateChallenge(serviceUrl: string, options: { key: string; origin: string; authType?: string }): Promise<WireAnswer> {
  const body = JSON.stringify({ key: options.key, authType: options.authType ?? 'jwt', returnAuthImageData: true })
  return send({
    method: 'POST',
    serviceUrl,
    target: '/v1/entity/challenges',
    headers: {
      Accept: 'application/json, text/plain, */*',
      'Content-Type': 'application/json',
      Origin: options.origin,
      'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
    },
    body,
  })
}
