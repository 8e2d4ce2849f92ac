import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createChallenge, pollStatus } from '../src/api.js'
import type { Options } from '../src/config.js'
import {
  CREATE_URL,
  FakeService,
  TOKEN,
  challengeJson,
  dataSrcOf,
  failureOf,
  headersOf,
  held,
  imageUrlOf,
  noContent,
  pollingUrlOf,
  status,
  tokenResponse,
  usableConfig,
  widget,
} from './helpers.js'

let service: FakeService
const config = usableConfig
const create = (options: Options = {}) => createChallenge(config(options), new AbortController().signal)
// A code with two minutes to live.
const poll = () => pollStatus(pollingUrlOf('c1'), Date.now() + 120_000, new AbortController().signal)

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2030-01-01T12:00:00Z') })
  service = new FakeService()
})

afterEach(() => {
  vi.useRealTimers()
  document.body.replaceChildren()
})

describe('createChallenge: request', () => {
  it('POSTs the key as JSON to {api}/v1/entity/challenges, without credentials', async () => {
    const signal = new AbortController().signal
    await createChallenge(config(), signal)
    expect(service.calls).toHaveLength(1)
    const [call] = service.calls
    expect(call.url).toBe(CREATE_URL)
    expect(call.init.method).toBe('POST')
    expect(JSON.parse(call.init.body as string)).toEqual({ key: 'pk_test_123', returnAuthImageData: true })
    // No cookies, even for a service on this page's own origin: it is a third party.
    expect(call.init.credentials).toBe('omit')
    // The default mode: under no-store, Chromium sends a CORS preflight before every new code.
    expect(call.init.cache).toBeUndefined()
  })

  it('says the body is JSON', async () => {
    await create()
    expect(headersOf(service.calls[0]).get('Content-Type')).toBe('application/json')
  })

  it('is unsigned: no Authorization header, the API secret never reaches a browser', async () => {
    await create()
    expect(headersOf(service.calls[0]).has('Authorization')).toBe(false)
  })

  it('asks for no image data when image data is off', async () => {
    await create({ imageData: false })
    expect(JSON.parse(service.calls[0].init.body as string)).toEqual({ key: 'pk_test_123', returnAuthImageData: false })
  })

  it('goes to the configured API base, however many slashes end it', async () => {
    await create({ api: 'https://eu.api.example/base/' }).catch(() => {})
    await create({ api: 'https://eu.api.example/base//' }).catch(() => {})
    expect(service.calls.map((call) => call.url)).toEqual([
      'https://eu.api.example/base/v1/entity/challenges',
      'https://eu.api.example/base/v1/entity/challenges',
    ])
  })
})

describe('createChallenge: the challenge', () => {
  it.each([200, 201, 202])('accepts any 2xx, here %i', async (code) => {
    service.create = () => Response.json(challengeJson('c1'), { status: code })
    await expect(create()).resolves.toMatchObject({ id: 'c1' })
  })

  it('turns inline image data into a data: URL, and keeps id, expiry, lifetime and polling URL', async () => {
    const body = challengeJson('c1', 90_000)
    service.create = () => Response.json(body, { status: 201 })
    expect(await create()).toEqual({
      id: 'c1',
      expiresAt: body.expiresAt,
      lifetime: 90_000,
      pollingUrl: pollingUrlOf('c1'),
      imageSrc: dataSrcOf('c1'),
    })
  })

  it('takes a code that lives exactly a second, the shortest of any use', async () => {
    service.create = () => Response.json(challengeJson('c1', 1000), { status: 201 })
    expect((await create()).lifetime).toBe(1000)
  })

  it('shows the configured image kind', async () => {
    expect((await create({ imageKind: 'qrcode-large' })).imageSrc).toBe('data:image/png;base64,TGFyZ2U=')
    expect((await create({ imageKind: 'qrcode-large', imageData: false })).imageSrc).toBe(imageUrlOf('c2').replace('standard', 'large'))
  })

  it('uses the image URL when image data is off', async () => {
    expect((await create({ imageData: false })).imageSrc).toBe(imageUrlOf('c1'))
  })

  it('falls back to the image URL when the service sent no data', async () => {
    service.create = () => Response.json(challengeJson('c1', 120_000, { authImagesData: undefined }), { status: 201 })
    expect((await create()).imageSrc).toBe(imageUrlOf('c1'))
  })

  it('takes the lifetime from the service clock, so a skewed client clock does not matter', async () => {
    // The service's clock is an hour behind ours: by our clock the code expired long ago.
    const createdAt = Date.now() - 3_600_000
    service.create = () =>
      Response.json(challengeJson('c1', 0, { createdAt: new Date(createdAt).toISOString(), expiresAt: new Date(createdAt + 60_000).toISOString() }), {
        status: 201,
      })
    expect((await create()).lifetime).toBe(60_000)
  })

  it('accepts a 200 as well as a 201', async () => {
    service.create = () => Response.json(challengeJson('c1'))
    expect((await create()).id).toBe('c1')
  })
})

describe('createChallenge: response validation', () => {
  const invalid: [string, Record<string, unknown>][] = [
    ['no id', { id: undefined }],
    ['a numeric id', { id: 7 }],
    ['no pollingUrl', { pollingUrl: undefined }],
    ['a javascript: pollingUrl', { pollingUrl: 'javascript:alert(1)' }],
    ['an ftp: pollingUrl', { pollingUrl: 'ftp://api.test.example/status' }],
    ['no image at all', { authImages: undefined, authImagesData: undefined }],
    ['a javascript: image URL and no data', { authImages: { 'qrcode-standard': 'javascript:alert(1)' }, authImagesData: undefined }],
    ['no expiresAt', { expiresAt: undefined }],
    ['an expiresAt that is not a date', { expiresAt: 'soon' }],
    ['an expiresAt before createdAt', { expiresAt: '2030-01-01T11:59:00Z' }],
    ['a lifetime under a second', { expiresAt: '2030-01-01T12:00:00.999Z' }],
    // Date.parse would read a number, or an array of one string, as a date (2031 as that year),
    // and the ready event would carry it where a string is promised.
    ['a numeric expiresAt', { expiresAt: 2031 }],
    ['an expiresAt that is an array', { expiresAt: ['2031-01-01T00:00:00Z'] }],
    ['a numeric createdAt', { createdAt: 2030 }],
    ['a createdAt that is an array', { createdAt: ['2030-01-01T12:00:00Z'] }],
    ['a createdAt that is not a date', { createdAt: 'now' }],
  ]

  it.each(invalid)('rejects a challenge with %s as "response"', async (_, fields) => {
    service.create = () => Response.json(challengeJson('c1', 120_000, fields), { status: 201 })
    await expect(create()).rejects.toMatchObject({ reason: 'response', status: 201 })
  })

  it('rejects an expiresAt in the past when the service sends no createdAt', async () => {
    service.create = () =>
      Response.json(challengeJson('c1', 120_000, { createdAt: undefined, expiresAt: new Date(Date.now() - 1000).toISOString() }), { status: 201 })
    await expect(create()).rejects.toMatchObject({ reason: 'response' })
  })

  it("rejects a challenge without createdAt: the spec gives both times, and the lifetime is measured on the service's clock", async () => {
    service.create = () => Response.json(challengeJson('c1', 120_000, { createdAt: undefined }), { status: 201 })
    await expect(create()).rejects.toMatchObject({ reason: 'response' })
  })

  it('rejects a body that is not JSON', async () => {
    service.create = () => new Response('<html>oops</html>', { status: 201 })
    await expect(create()).rejects.toMatchObject({ reason: 'response' })
  })
})

describe('createChallenge: failures', () => {
  it.each([400, 401, 403, 404, 408, 422])('a %i is "rejected": the key, origin or URL is wrong', async (code) => {
    service.create = () => status(code)
    expect(await failureOf(create())).toEqual({
      reason: 'rejected',
      status: code,
      retryAfter: 0,
      message: `the service refused a code (${code}): no reason given Check apiKey, api.`,
      final: true,
    })
  })

  it.each([429, 500, 502, 503])('a %i is "service", worth retrying', async (code) => {
    service.create = () => status(code)
    await expect(create()).rejects.toMatchObject({ reason: 'service', status: code })
  })

  it('reads Retry-After seconds as ms', async () => {
    service.create = () => status(429, { 'Retry-After': '30' })
    expect(await failureOf(create())).toEqual({ reason: 'service', status: 429, retryAfter: 30_000, message: '', final: false })
  })

  it('leaves an HTTP-date Retry-After to the backoff', async () => {
    service.create = () => status(503, { 'Retry-After': 'Wed, 01 Jan 2031 00:00:00 GMT' })
    await expect(create()).rejects.toMatchObject({ reason: 'service', retryAfter: 0 })
  })

  it('a network error is "network" with status 0', async () => {
    service.create = () => new TypeError('Failed to fetch')
    await expect(create()).rejects.toMatchObject({ reason: 'network', status: 0 })
  })

  it('rejects with the abort reason when aborted', async () => {
    service.create = () => held().promise
    const controller = new AbortController()
    const pending = createChallenge(config(), controller.signal)
    const reason = new DOMException('stopped', 'AbortError')
    controller.abort(reason)
    await expect(pending).rejects.toBe(reason)
  })
})

describe('pollStatus', () => {
  it('GETs the polling URL without cache', async () => {
    const signal = new AbortController().signal
    await pollStatus(pollingUrlOf('c1'), Date.now() + 120_000, signal)
    const [call] = service.calls
    expect(call.url).toBe(pollingUrlOf('c1'))
    expect(call.init.method ?? 'GET').toBe('GET')
    expect(call.init.cache).toBe('no-store')
    expect(call.init.credentials).toBe('omit')
    expect(headersOf(call).has('Authorization')).toBe(false)
  })

  it('a 204 means not signed yet: "pending"', async () => {
    service.poll = () => noContent()
    expect(await poll()).toBe('pending')
  })

  it('another 2xx without a token also means not signed yet', async () => {
    service.poll = () => new Response(null, { status: 202 })
    expect(await poll()).toBe('pending')
  })

  it('a 200 with a JWT gives the token', async () => {
    service.poll = () => tokenResponse()
    expect(await poll()).toEqual({ token: TOKEN })
  })

  it('a 410 means the code expired, and a 404 that the service no longer knows it: outcomes, not failures', async () => {
    service.poll = () => status(410)
    expect(await poll()).toBe('expired')
    service.poll = () => status(404)
    expect(await poll()).toBe('unknown')
  })

  it('a poll asked after the deadline finds the code expired without asking the service', async () => {
    expect(await pollStatus(pollingUrlOf('c1'), Date.now() - 1, new AbortController().signal)).toBe('expired')
    expect(service.calls).toHaveLength(0)
    // At the deadline itself, it still asks.
    await pollStatus(pollingUrlOf('c1'), Date.now(), new AbortController().signal)
    expect(service.calls).toHaveLength(1)
  })

  it.each([
    ['no body', () => new Response(null, { status: 200 })],
    ['no token', () => Response.json({ status: 'signed' })],
    ['a numeric token', () => Response.json({ token: 42 })],
  ])('a 200 with %s is "response"', async (_, reply) => {
    service.poll = reply
    await expect(poll()).rejects.toMatchObject({ reason: 'response', status: 200 })
  })

  it.each([[''], [null], [42], [{ jwt: 'a.b.c' }]])('a 200 whose token is %j is "response"', async (token) => {
    service.poll = () => Response.json({ token })
    await expect(poll()).rejects.toMatchObject({ reason: 'response', status: 200 })
  })

  it.each([400, 403, 500, 429])('a %i rejects as "service" with its status', async (code) => {
    service.poll = () => status(code, { 'Retry-After': '7' })
    expect(await failureOf(poll())).toEqual({ reason: 'service', status: code, retryAfter: 7000, message: '', final: false })
  })

  it('a network error is "network"', async () => {
    service.poll = () => new TypeError('Failed to fetch')
    await expect(poll()).rejects.toMatchObject({ reason: 'network', status: 0 })
  })

  it('rejects with the abort reason when aborted while held', async () => {
    service.poll = () => held().promise
    const controller = new AbortController()
    const pending = pollStatus(pollingUrlOf('c1'), Date.now() + 120_000, controller.signal)
    controller.abort()
    await expect(pending).rejects.toBe(controller.signal.reason)
    expect(service.calls[0].init.signal!.aborted).toBe(true)
  })
})

describe('pollStatus: a poll nobody answers', () => {
  it("is given up a little after the code's deadline, as a network failure", async () => {
    service.poll = () => held().promise
    const pending = pollStatus(pollingUrlOf('c1'), Date.now() + 5_000, new AbortController().signal)
    const outcome = pending.catch((error) => error)
    await vi.advanceTimersByTimeAsync(7_999)
    expect(service.calls[0].init.signal!.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(await outcome).toMatchObject({ reason: 'network', status: 0 })
    expect(service.calls[0].init.signal!.aborted).toBe(true)
  })

  it('is given up after 30 s however long the code lives', async () => {
    service.poll = () => held().promise
    const outcome = pollStatus(pollingUrlOf('c1'), Date.now() + 10 * 365 * 86_400_000, new AbortController().signal).catch((error) => error)
    // Held until then, not given up at once: a timer of years is more than browsers can set, and
    // would fire at once.
    await vi.advanceTimersByTimeAsync(29_999)
    expect(service.calls[0]!.init.signal!.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(await outcome).toMatchObject({ reason: 'network' })
  })
})

describe('createChallenge: a hostile or broken service', () => {
  const answer = (fields: Record<string, unknown>) => {
    service.create = () => Response.json(challengeJson('c1', 120_000, fields), { status: 201 })
  }

  // Every origin but the service's: this page's own (where cookies would go), its controller,
  // another site, and look-alikes of the service's.
  const elsewhere = [
    'http://localhost:3000/account/delete?confirm=yes',
    '/auth/controller',
    'https://evil.example/status',
    'http://api.test.example/v1/entity/challenges/c1/status',
    'https://api.test.example:8443/v1/entity/challenges/c1/status',
    'https://api.test.example.evil.example/status',
    'https://api.test.example@evil.example/status',
    '//evil.example/status',
    'javascript:alert(1)',
    'data:text/plain,x',
    'blob:https://api.test.example/1',
    'file:///etc/passwd',
    ' https://evil.example/',
  ]

  it.each(elsewhere)("never polls a pollingUrl off the service's origin: %s", async (pollingUrl) => {
    answer({ pollingUrl })
    await expect(create()).rejects.toMatchObject({ reason: 'response' })
    expect(service.calls).toHaveLength(1)
  })

  it.each(elsewhere)("never loads an image from off the service's origin: %s", async (url) => {
    answer({ authImages: { 'qrcode-standard': url }, authImagesData: undefined })
    await expect(create()).rejects.toMatchObject({ reason: 'response' })
  })

  it("takes a pollingUrl on the service's origin, whatever its path", async () => {
    answer({ pollingUrl: 'https://api.test.example/elsewhere/c1?secret=s' })
    expect((await create()).pollingUrl).toBe('https://api.test.example/elsewhere/c1?secret=s')
  })

  it.each([
    ['far off', '+100000-01-01T00:00:00.000Z'],
    ['years ahead', '2040-01-01T00:00:00Z'],
  ])('takes an expiresAt %s', async (_, expiresAt) => {
    answer({ expiresAt })
    const challenge = await create()
    expect(challenge.lifetime).toBe(Date.parse(expiresAt) - Date.parse(challengeJson('c1').createdAt))
  })

  it.each<[string, unknown]>([
    ['an array', []],
    ['a string', 'challenge'],
    ['a number', 42],
    ['null', null],
    ['an id that is an object', { ...challengeJson('c1'), id: { toString: 'c1' } }],
    ['image data that is a number', { ...challengeJson('c1'), authImagesData: { 'qrcode-standard': 7 }, authImages: undefined }],
    ['a pollingUrl that is an object', { ...challengeJson('c1'), pollingUrl: { href: pollingUrlOf('c1') } }],
    ['a createdAt after expiresAt', { ...challengeJson('c1'), createdAt: '2031-01-01T00:00:00Z' }],
  ])('rejects a body that is %s as "response"', async (_, body) => {
    service.create = () => Response.json(body, { status: 201 })
    await expect(create()).rejects.toMatchObject({ reason: 'response' })
  })

  it('takes an answer of 5 MB for a bad one, for good, and says its size', async () => {
    service.create = () => Response.json({ ...challengeJson('c1'), padding: 'x'.repeat(5_000_000) }, { status: 201, headers: { 'Content-Length': '5000000' } })
    expect(await failureOf(create())).toEqual({
      reason: 'response',
      status: 201,
      retryAfter: 0,
      message: 'an answer of 5000000 B or more (201) is over 256 KB.',
      final: true,
    })
  })

  it('is given up after 30 s without an answer, as a network failure', async () => {
    service.create = () => held().promise
    const outcome = create().catch((error) => error)
    await vi.advanceTimersByTimeAsync(30_000)
    expect(await outcome).toMatchObject({ reason: 'network' })
  })
})

describe('createChallenge: an image kind the service does not offer', () => {
  it('is the markup\'s fault: "config", naming the attribute and the kinds offered', async () => {
    const cfg = config({ imageKind: 'bogus' })
    expect(await failureOf(createChallenge(cfg, new AbortController().signal))).toEqual({
      reason: 'config',
      status: 0,
      retryAfter: 0,
      message: 'imageKind is missing or invalid; offered: qrcode-standard,qrcode-large',
      final: true,
    })
    // The network layer never writes into the configuration: the problem travels on the failure.
    expect(cfg.problem).toBeUndefined()
  })
})

describe('createChallenge: an authImages that is not a map of kinds to URLs', () => {
  // The service's broken answer, retried as such: nothing in the markup can mend it.
  it.each<[string, unknown]>([
    ['an empty object', {}],
    ['an array', []],
    ['an array of URLs', [imageUrlOf('c1')]],
    ['a string', 'qrcode-standard'],
    ['a number', 7],
    ['kinds without a URL on the service', { 'qrcode-large': 7, 'qrcode-extended': 'https://evil.example/qr.png' }],
  ])('is a bad answer ("response") when it is %s, not the markup\'s fault', async (_, authImages) => {
    service.create = () => Response.json(challengeJson('c1', 120_000, { authImages, authImagesData: undefined }), { status: 201 })
    await expect(create()).rejects.toMatchObject({ reason: 'response', status: 201 })
  })

  it('is no reason to refuse a code whose image data is there', async () => {
    service.create = () => Response.json(challengeJson('c1', 120_000, { authImages: {} }), { status: 201 })
    expect((await create()).imageSrc).toBe(dataSrcOf('c1'))
  })

  it('offers only the kinds with a URL on the service, should the markup name another', async () => {
    service.create = () =>
      Response.json(challengeJson('c1', 120_000, { authImages: { 'qrcode-standard': imageUrlOf('c1'), 'qrcode-odd': 7 } }), { status: 201 })
    expect(await failureOf(create({ imageKind: 'bogus' }))).toMatchObject({
      reason: 'config',
      message: 'imageKind is missing or invalid; offered: qrcode-standard',
    })
  })

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'takes a kind only from what the answer itself holds: %s is no kind, but a config error',
    async (imageKind) => {
      expect(await failureOf(create({ imageKind }))).toEqual({
        reason: 'config',
        status: 0,
        retryAfter: 0,
        message: 'imageKind is missing or invalid; offered: qrcode-standard,qrcode-large',
        final: true,
      })
    },
  )

  it('takes the kind the answer holds as its own, whatever its name', async () => {
    const authImages = JSON.parse(`{"__proto__": "${imageUrlOf('c1')}"}`)
    service.create = () => Response.json(challengeJson('c1', 120_000, { authImages, authImagesData: undefined }), { status: 201 })
    expect((await create({ imageKind: '__proto__', imageData: false })).imageSrc).toBe(imageUrlOf('c1'))
  })
})

describe('createChallenge: authType', () => {
  it('is sent when the markup names one (data-service-auth-type), as the incumbent embed did', async () => {
    await createChallenge(config({}, widget({ 'data-service-auth-type': 'web' })), new AbortController().signal)
    expect(JSON.parse(service.calls[0].init.body as string)).toEqual({ key: 'pk_test_123', authType: 'web', returnAuthImageData: true })
  })
})
