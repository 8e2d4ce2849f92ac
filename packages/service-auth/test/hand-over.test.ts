import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Options } from '../src/config.js'
import { handOver } from '../src/hand-over.js'
import { CONTROLLER_URL, FakeService, TOKEN, failureOf, headersOf, held, status, usableConfig } from './helpers.js'

let service: FakeService
const go = (options: Options = {}, signal = new AbortController().signal) => handOver(usableConfig(options), TOKEN, signal)

/** A response as fetch gives it after following redirects to `url`. */
function redirectedTo(url: string, body: BodyInit | null = 'welcome', type = 'text/html') {
  const res = new Response(body, { status: 200, headers: { 'Content-Type': type } })
  Object.defineProperty(res, 'redirected', { value: true })
  Object.defineProperty(res, 'url', { value: url })
  return res
}

beforeEach(() => {
  service = new FakeService()
})

afterEach(() => {
  document.body.replaceChildren()
})

describe('handOver: the request the controller receives', () => {
  it('GETs the controller with the token in X-Service-Auth, asking for JSON', async () => {
    const signal = new AbortController().signal
    await go({}, signal)
    expect(service.calls).toHaveLength(1)
    const [call] = service.calls
    expect(call.url).toBe(CONTROLLER_URL)
    expect(call.init.method ?? 'GET').toBe('GET')
    expect(call.init.body ?? null).toBeNull()
    const headers = headersOf(call)
    expect(headers.get('Accept')).toBe('application/json')
    expect(headers.get('X-Requested-With')).toBe('XMLHttpRequest')
    expect(headers.get('X-Service-Auth')).toBe(TOKEN)
    expect(headers.has('Authorization')).toBe(false)
    expect(call.init.cache).toBe('no-store')
    // Cookies go along (the controller is this origin's own), unlike the service's requests.
    expect(call.init.credentials).toBeUndefined()
    expect(call.init.mode).toBe('same-origin')
  })

  it('sends cookies, and only on this origin: same-origin credentials and mode', async () => {
    await go()
    const { init } = service.calls[0]
    // Left out, credentials take fetch's default, which is same-origin.
    expect(init.credentials ?? 'same-origin').toBe('same-origin')
    expect(init.mode).toBe('same-origin')
  })

  it.each(['Authorization', 'authorization'])('puts "Bearer " before the token in an %s header', async (authHeader) => {
    await go({ authHeader })
    const headers = headersOf(service.calls[0])
    expect(headers.get('Authorization')).toBe('Bearer ' + TOKEN)
    expect(headers.has('X-Service-Auth')).toBe(false)
  })

  it('uses a custom header name with the bare token', async () => {
    await go({ authHeader: 'X-Login-Token' })
    expect(headersOf(service.calls[0]).get('X-Login-Token')).toBe(TOKEN)
  })

  it('never puts the token in the URL', async () => {
    await go({ authUrl: '/auth/controller?mode=json' })
    expect(service.calls[0].url).toBe(CONTROLLER_URL + '?mode=json')
    expect(service.calls[0].url).not.toContain(TOKEN)
  })
})

describe('handOver: where to go next', () => {
  it('follows a JSON location, resolved against the page', async () => {
    service.controller = () => Response.json({ location: '/welcome?x=1' })
    expect((await go())?.href).toBe('http://localhost:3000/welcome?x=1')
  })

  it('follows an absolute http(s) location elsewhere: the controller decides', async () => {
    service.controller = () => Response.json({ location: 'https://app.example/home' })
    expect((await go())?.href).toBe('https://app.example/home')
  })

  it('prefers the JSON location over the URL a redirect ended on', async () => {
    service.controller = () => {
      const res = redirectedTo('http://localhost:3000/redirected', JSON.stringify({ location: '/from-json' }), 'application/json')
      return res
    }
    expect((await go())?.href).toBe('http://localhost:3000/from-json')
  })

  it('else goes where the redirect ended', async () => {
    service.controller = () => redirectedTo('http://localhost:3000/welcome')
    expect((await go())?.href).toBe('http://localhost:3000/welcome')
  })

  it('reads nothing of the page a redirect ended on, however large: it is cancelled unread', async () => {
    let pulled = 0
    let cancelled = false
    const page = new ReadableStream({
      pull(stream) {
        pulled++
        stream.enqueue(new Uint8Array(65_536))
      },
      cancel() {
        cancelled = true
      },
    })
    service.controller = () => redirectedTo('http://localhost:3000/welcome', page)
    expect((await go())?.href).toBe('http://localhost:3000/welcome')
    expect(pulled).toBeLessThanOrEqual(1)
    expect(cancelled).toBe(true)
  })

  it.each([
    ['an empty 200', () => new Response(null, { status: 200 })],
    ['a 204', () => new Response(null, { status: 204 })],
    ['plain text', () => new Response('ok', { status: 200 })],
    ['JSON without a location', () => Response.json({ ok: true })],
  ])('else names no place (null) after %s', async (_, reply) => {
    service.controller = reply
    expect(await go()).toBeNull()
  })

  it.each(['javascript:alert(document.cookie)', 'data:text/html,<script>alert(1)</script>', 'ftp://files.example/'])(
    'refuses a %s location as reason "location"',
    async (location) => {
      service.controller = () => Response.json({ location })
      expect(await failureOf(go())).toEqual({
        reason: 'location',
        status: 200,
        retryAfter: 0,
        message: "the controller's location is not http(s).",
        final: false,
      })
    },
  )
})

describe('handOver: failures', () => {
  it.each([400, 401, 403, 404, 500, 503])('a %i is reason "controller", with its status, and says it gave no reason', async (code) => {
    service.controller = () => status(code)
    expect(await failureOf(go())).toEqual({
      reason: 'controller',
      status: code,
      retryAfter: 0,
      message: `the controller refused the sign-in (${code}): no reason given`,
      final: false,
    })
  })

  it("says the controller's reason, its problem's detail, else its title", async () => {
    const problem = (body: object) => () => Response.json(body, { status: 403, headers: { 'Content-Type': 'application/problem+json' } })
    service.controller = problem({ title: 'Forbidden', detail: 'This user may not sign in here.' })
    expect((await failureOf(go())).message).toBe('the controller refused the sign-in (403): This user may not sign in here.')
    service.controller = problem({ title: 'Forbidden' })
    expect((await failureOf(go())).message).toBe('the controller refused the sign-in (403): Forbidden')
  })

  it('never repeats the token, should the controller echo it in its reason', async () => {
    service.controller = () => Response.json({ detail: `Bad token ${TOKEN}, and again: ${TOKEN}.` }, { status: 401 })
    const { message } = await failureOf(go())
    expect(message).toBe('the controller refused the sign-in (401): Bad token ….….…, and again: ….….….')
    expect(message).not.toContain(TOKEN.split('.')[2])
  })

  it('never repeats a part of a token either, should the controller echo one (its claims, its signature), nor other secrets', async () => {
    // A token's claims and signature as the service makes them: far longer than any word.
    const claims = 'eyJzdWIiOiJhbGljZSIsImp0aSI6ImMxIiwib3RwIjoiMTIzNDU2IiwiZXhwIjoxODkzNTAwMDAwfQ'
    const signature = 'c2lnbmF0dXJlLW9mLXRoZS1zZXJ2aWNlLWhtYWMtc2hhMjU2'
    service.controller = () => Response.json({ detail: `Claims ${claims} refused; signature ${signature} does not verify; user not allowed.` }, { status: 401 })
    const { message } = await failureOf(go())
    expect(message).toBe('the controller refused the sign-in (401): Claims … refused; signature … does not verify; user not allowed.')
  })

  it('never repeats a token cut into short pieces either, while words stay', async () => {
    // Pieces of 4 to 12 characters of its three parts, each shorter than the 16 that stand for a secret anywhere.
    const pieces = (size: number) =>
      TOKEN.split('.')
        .flatMap((part) => part.match(new RegExp(`.{4,${size}}`, 'g'))!)
        .join(' ')
    for (const size of [4, 12]) {
      service.controller = () => Response.json({ detail: `Bad token ${pieces(size)}: user not allowed.` }, { status: 401 })
      const { message } = await failureOf(go())
      // Each piece reads "…".
      expect(message).toMatch(/^the controller refused the sign-in \(401\): Bad token [… ]+: user not allowed\.$/)
    }
  })

  it('a refusal is "controller" even when it names a location', async () => {
    service.controller = () => Response.json({ location: '/welcome' }, { status: 403 })
    expect(await failureOf(go())).toMatchObject({ reason: 'controller', status: 403 })
  })

  it('a controller that cannot be reached, or redirects to another origin, is "network", and says what it should answer instead', async () => {
    // What fetch does in same-origin mode when a redirect leads elsewhere.
    service.controller = () => new TypeError('Failed to fetch')
    expect(await failureOf(go())).toEqual({
      reason: 'network',
      status: 0,
      retryAfter: 0,
      message: 'no answer from the controller, or it redirected to another origin: answer {"location": "https://…"}.',
      final: false,
    })
  })

  it('rejects with the abort reason when aborted', async () => {
    service.controller = () => held().promise
    const controller = new AbortController()
    const pending = go({}, controller.signal)
    controller.abort()
    await expect(pending).rejects.toBe(controller.signal.reason)
  })
})
