// @vitest-environment node
// No input produces a 500, and bad input never changes stored state: odd requests of every
// kind, over fetch and over a raw socket, against a service holding a known state.
import { connect } from 'node:net'
import { decodeJwt } from 'jose'
import { beforeEach, describe, expect, it } from 'vitest'
import { useService } from './helpers.js'

const service = useService()
/** A pending challenge's status path, secret included, as its creator polls it. */
let statusPath: string

/** Everything the service stores, as the API and the knobs show it. */
async function snapshot() {
  const get = async (path: string) => (await service.knob(path, undefined, 'GET')).json()
  const signedGet = async (path: string) => (await service.api('GET', path)).json()
  const identities = await signedGet('/v1/entity/identities')
  const challenges = (await get('challenges')).map(({ polls: _, ...rest }: { polls: number }) => rest)
  const [configuration, sessions] = [await signedGet('/v1/entity/configuration'), await signedGet('/v1/entity/sessions')]
  return { identities, challenges, enrollments: await get('enrollments'), outbox: await get('outbox'), configuration, sessions }
}

beforeEach(async () => {
  // A session too, so that bad session updates have something to corrupt.
  await service.api('PATCH', '/v1/entity/configuration', { body: { sessionsEnabled: true, websiteUrl: 'https://shop.example' } })
  await service.provisionPhone('ada@example.com')
  const signed = (await service.createChallenge()).id
  const { jti, otp } = decodeJwt(await service.sign(signed, 'ada@example.com'))
  const confirmed = await service.api('POST', '/v1/entity/identities/ada%40example.com/authenticate', { body: { challenge: jti, otp } })
  if (!(await confirmed.json()).session) throw new Error('No session was started.')
  const { pathname, search } = new URL((await service.createChallenge()).pollingUrl)
  statusPath = pathname + search
  await service.knob('config', { holdMs: 0 })
})

/** Sends bytes as they are and returns the status line's code (0 when the server just closed). */
async function rawRequest(bytes: string): Promise<number> {
  return (await rawExchange(bytes)).status
}

/** Sends bytes as they are; the answer's status code (0 when the server just closed) and text. */
function rawExchange(bytes: string): Promise<{ status: number; text: string }> {
  const url = new URL(service.url)
  return new Promise((resolve, reject) => {
    // Written, not ended: a half-closed socket reads to Node as a client that gave up.
    const socket = connect(Number(url.port), url.hostname, () => socket.write(bytes, 'latin1'))
    let answer = ''
    socket.on('data', (chunk) => (answer += chunk))
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0), text: answer }))
    socket.on('error', reject)
  })
}

const json = { 'Content-Type': 'application/json' }
const ODD_SIGNED: [string, string, { rawBody?: string; headers?: Record<string, string>; body?: unknown }][] = [
  ['POST', '/v1/entity/identities/enroll', { rawBody: '{"__proto__": {"identifier": "eve@example.com"}}', headers: json }],
  ['POST', '/v1/entity/identities/enroll', { rawBody: '['.repeat(5000) + ']'.repeat(5000), headers: json }],
  ['POST', '/v1/entity/identities/enroll', { rawBody: '{"identifier": "ada@example.com", "timeout": 1e400}', headers: json }],
  ['POST', '/v1/entity/identities/enroll', { rawBody: '\uFEFF{"identifier": "x"}', headers: json }],
  ['POST', '/v1/entity/identities/enroll', { rawBody: 'null', headers: json }],
  ['POST', '/v1/entity/identities/enroll', { rawBody: '"ada"', headers: json }],
  ['POST', '/v1/entity/identities/enroll', { body: { identifier: 'ada@example.com', role: null, nickname: { a: 1 } } }],
  ['POST', '/v1/entity/identities/enroll', { body: { identifier: 'a\u0000b' } }],
  ['POST', '/v1/entity/identities/enroll', { body: { identifier: 'x', sendEmail: true, sendEmailTo: 'a@b.c\r\nBcc: eve@example.com' } }],
  ['POST', '/v1/entity/identities', { body: { identifier: 'ada@example.com' } }],
  ['POST', '/v1/entity/identities/ada%40example.com', { body: { locked: 'true', nickname: 12 } }],
  ['POST', '/v1/entity/identities/ada%40example.com', { rawBody: '', headers: json }],
  ['POST', '/v1/entity/identities/ada%40example.com/rename', { body: { identifier: ['grace'] } }],
  ['POST', '/v1/entity/identities/ada%40example.com/authenticate', { body: { challenge: 'x'.repeat(10_000), otp: 'y' } }],
  ['POST', '/v1/entity/identities/%E0%A4%A/authenticate', { body: { challenge: 'x', otp: 'y' } }],
  ['DELETE', '/v1/entity/identities/%ED%A0%80', {}],
  ['DELETE', '/v1/entity/identities/', {}],
  ['PUT', '/v1/entity/identities/ada%40example.com', { body: { locked: true } }],
  ['PATCH', '/v1/entity/identities/ada%40example.com', { body: { locked: true } }],
  ['GET', '/v1/entity/identities?page=1e3&limit=NaN&page=2', {}],
  ['GET', '/v1/entity/identities?limit=%00', {}],
  ['GET', `/v1/entity/identities/${'a'.repeat(5000)}`, {}],
  ['GET', '/v1/entity/identities?limit=1001', {}],
  ['POST', '/v1/entity/check', { body: { message: 'pong' } }],
  ['POST', '/v1/entity/check', { rawBody: '[]', headers: json }],
  ['GET', '/v1/entity/check', {}],
  ['PATCH', '/v1/entity/configuration', { body: { websiteUrl: 'javascript:alert(1)//https://x' } }],
  ['PATCH', '/v1/entity/configuration', { body: { websiteUrl: 'https://a.example', sessionsEnabled: 'false' } }],
  ['PATCH', '/v1/entity/configuration', { body: { sessionsEnabled: false, supportSessions: true } }],
  ['PATCH', '/v1/entity/configuration', { body: { registrationUrl: `https://a.example/${'x'.repeat(3000)}` } }],
  ['PATCH', '/v1/entity/configuration', { rawBody: '[{"websiteUrl": null}]', headers: json }],
  ['PUT', '/v1/entity/configuration', { body: { websiteUrl: null } }],
  ['DELETE', '/v1/entity/tokens/nope', {}],
  ['DELETE', '/v1/entity/tokens/%E0%A4%A', {}],
  ['PATCH', '/v1/entity/sessions', { body: { id: 'x' } }],
  ['PATCH', '/v1/entity/sessions', { body: [{ clientSessionExpiresAt: '2000-01-01T00:00:00Z' }] }],
  ['PATCH', '/v1/entity/sessions', { body: [null, 5, 'x'] }],
  ['PATCH', '/v1/entity/sessions', { body: [{ id: 'x', clientSessionExpiresAt: 'yesterday' }] }],
  ['PATCH', '/v1/entity/sessions', { body: [{ id: 'x', clientSessionUpdatedAt: 1e300 }] }],
  ['PATCH', '/v1/entity/sessions', { body: Array.from({ length: 501 }, () => ({ id: 'x' })) }],
  ['PATCH', '/v1/entity/sessions', { rawBody: 'id=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }],
  ['GET', `/v1/entity/sessions/${'s'.repeat(5000)}`, {}],
  ['DELETE', '/v1/entity/sessions/nope', {}],
  ['POST', '/v1/entity/sessions', { body: {} }],
]

/** The service's own Host: raw requests with any other are refused before they reach what they test. */
const host = () => new URL(service.url).host

describe('odd input', () => {
  it.each(ODD_SIGNED)('%s %s (signed): a 4xx, and nothing changes', async (method, path, request) => {
    const before = await snapshot()
    const res = await service.api(method, path, request)
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    expect(await snapshot()).toEqual(before)
  })

  const ODD_UNSIGNED: [string, RequestInit & { path: string }][] = [
    ['create with a key that is a number', { path: '/v1/entity/challenges', method: 'POST', headers: json, body: '{"key": 1}' }],
    ['create with a key of 100 KB', { path: '/v1/entity/challenges', method: 'POST', headers: json, body: JSON.stringify({ key: 'k'.repeat(100_000) }) }],
    [
      'create with returnAuthImageData as text',
      { path: '/v1/entity/challenges', method: 'POST', headers: json, body: JSON.stringify({ key: 'k', returnAuthImageData: 'yes' }) },
    ],
    ['status with a broken escape', { path: '/v1/entity/challenges/%zz/status', method: 'GET' }],
    ['status by POST', { path: '/v1/entity/challenges/x/status', method: 'POST', body: '{}' }],
    ['image of a made-up kind', { path: '/v1/entity/challenges/x/images/..%2F..%2Fetc%2Fpasswd', method: 'GET' }],
    ['a path outside the API', { path: '/v2/entity/identities', method: 'GET' }],
    [
      'knob fail with a non-ASCII Retry-After',
      { path: '/__knobs/fail', method: 'POST', headers: json, body: JSON.stringify({ status: 503, retryAfter: '\u{1F600}' }) },
    ],
    [
      'knob fail with a content type that breaks headers',
      { path: '/__knobs/fail', method: 'POST', headers: json, body: JSON.stringify({ status: 503, contentType: 'text/plain\r\nX: y' }) },
    ],
    [
      'knob fail with a location that breaks headers',
      { path: '/__knobs/fail', method: 'POST', headers: json, body: JSON.stringify({ status: 302, location: '/x\r\nSet-Cookie: a=b' }) },
    ],
    [
      'knob sign by an identifier and a device that disagree',
      { path: `/__knobs/challenges/x/sign`, method: 'POST', headers: json, body: '{"identifier": "a", "deviceId": 5}' },
    ],
    ['knob devices with a token of the wrong type', { path: '/__knobs/devices', method: 'POST', headers: json, body: '{"token": {"id": 1}}' }],
    ['knob config with a huge hold', { path: '/__knobs/config', method: 'POST', headers: json, body: '{"holdMs": 1e12}' }],
  ]

  it.each(ODD_UNSIGNED)('%s: a 4xx, and nothing changes', async (_, { path, ...init }) => {
    const before = await snapshot()
    const res = await fetch(service.url + path, init)
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThan(500)
    expect(await snapshot()).toEqual(before)
  })

  it('raw requests the HTTP client would not send get a 4xx, never a 500', async () => {
    const before = await snapshot()
    const requests = [
      `GET * HTTP/1.1\r\nHost: ${host()}\r\n\r\n`,
      `GET //evil.example/v1/entity/identities HTTP/1.1\r\nHost: ${host()}\r\n\r\n`,
      `GET http://evil.example/v1/entity/identities HTTP/1.1\r\nHost: ${host()}\r\n\r\n`,
      'GET /v1/entity/identities HTTP/1.1\r\nHost: [\r\nAuthorization: Bearer a.b.c\r\n\r\n',
      'GET /v1/entity/identities HTTP/1.1\r\nAuthorization: x\r\n\r\n',
      'NOT HTTP AT ALL\r\n\r\n',
      `GET /v1/entity/identities HTTP/1.1\r\nHost: ${host()}\r\nBad Header: y\r\n\r\n`,
      `GET /v1/entity/identities HTTP/1.1\r\nHost: ${host()}\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
      `POST /v1/entity/identities/enroll HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nContent-Length: 999999\r\n\r\n{}`,
      `POST /v1/entity/challenges HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5000\r\n${'a'.repeat(0x5000)}\r\n0\r\n\r\n`,
    ]
    for (const request of requests) {
      const status = await rawRequest(request)
      expect(status, request.split('\r\n')[0]).toBeGreaterThanOrEqual(400)
      expect(status, request.split('\r\n')[0]).toBeLessThan(500)
    }
    expect(await snapshot()).toEqual(before)
  })

  it("even what Node's HTTP parser refuses gets problem JSON", async () => {
    const garbage = await rawExchange('NOT HTTP AT ALL\r\n\r\n')
    expect(garbage.status).toBe(400)
    expect(garbage.text).toContain('Content-Type: application/problem+json')
    expect(JSON.parse(garbage.text.split('\r\n\r\n')[1]!)).toMatchObject({ title: 'Bad Request', status: 400, instance: '/' })
    const huge = await rawExchange(`GET /v1/entity/identities HTTP/1.1\r\nHost: ${host()}\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`)
    expect(huge.status).toBe(431)
    expect(JSON.parse(huge.text.split('\r\n\r\n')[1]!)).toMatchObject({ title: 'Request Header Fields Too Large', status: 431, instance: expect.any(String) })
  })

  it('a request without Host, or whose target is not a path, gets problem JSON whose instance is a path', async () => {
    const problemIn = (text: string) => {
      expect(text).toContain('Content-Type: application/problem+json')
      return JSON.parse(text.split('\r\n\r\n')[1]!)
    }
    const hostless = await rawExchange('GET /v1/entity/identities HTTP/1.1\r\nAuthorization: x\r\n\r\n')
    expect(hostless.status).toBe(400)
    expect(problemIn(hostless.text)).toMatchObject({ status: 400, detail: expect.stringContaining('Host'), instance: '/v1/entity/identities' })
    for (const target of ['*', 'http://evil.example/v1/entity/identities']) {
      const answer = await rawExchange(`GET ${target} HTTP/1.1\r\nHost: ${host()}\r\n\r\n`)
      expect(answer.status).toBe(400)
      expect(problemIn(answer.text)).toMatchObject({ status: 400, instance: '/' })
    }
  })

  it('an Origin header with a non-ASCII byte is only an unknown origin', async () => {
    expect(await rawRequest(`GET ${statusPath} HTTP/1.1\r\nHost: ${host()}\r\nOrigin: \xff\r\n\r\n`)).toBe(204)
  })
})
