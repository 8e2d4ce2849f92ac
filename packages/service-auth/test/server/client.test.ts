// @vitest-environment node
// The client against a small recording server: what it signs and sends, and how it reads answers.
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { jwtVerify, decodeProtectedHeader } from 'jose'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createClient, PathSegmentError, ServiceError, ServiceUnreachableError } from '../../src/server/index.js'
import { pathSegment } from '../../src/server/path-segment.js'

const key = 'pk_test'
const secret = randomBytes(32).toString('base64')

interface Seen {
  method: string
  url: string
  authorization: string
  accept?: string
  contentType?: string
  body: string
}
let seen: Seen[]
let answer: (req: IncomingMessage) => { status: number; body?: unknown; delay?: number; headers?: Record<string, string> }
let server: Server
let baseUrl: string

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let body = ''
    for await (const chunk of req) body += chunk
    seen.push({
      method: req.method!,
      url: req.url!,
      authorization: req.headers.authorization!,
      accept: req.headers.accept,
      contentType: req.headers['content-type'],
      body,
    })
    const { status, body: reply, delay, headers = {} } = answer(req)
    setTimeout(() => {
      res.writeHead(status, reply === undefined ? headers : { ...headers, 'Content-Type': status < 400 ? 'application/json' : 'application/problem+json' })
      res.end(reply === undefined ? undefined : typeof reply === 'string' ? reply : JSON.stringify(reply))
    }, delay ?? 0)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))
beforeEach(() => {
  seen = []
  answer = () => ({ status: 200, body: {} })
})

const LARGEST = 16 * 1024 * 1024

// The default time limit, so that a busy machine (or Stryker's instrumentation) never reads a slow
// answer as none; the tests of the limit itself give a short one.
const client = (timeout?: number) => createClient({ baseUrl, key, secret, ...(timeout !== undefined && { timeout }) })

describe('createClient: request signing (spec section 5)', () => {
  it('signs every request with an HS256 JWT carrying iss, aud, iat, nbf, exp, method, url and bodyHash', async () => {
    await client().authenticate('ada@example.com', { challenge: 'c1', otp: '42' })
    const [request] = seen
    expect(decodeProtectedHeader(request.authorization)).toEqual({ alg: 'HS256', typ: 'JWT' })
    const { payload } = await jwtVerify(request.authorization, Buffer.from(secret, 'base64'), { algorithms: ['HS256'], issuer: key, audience: baseUrl })
    expect(payload).toMatchObject({
      method: 'POST',
      url: `${baseUrl}/v1/entity/identities/ada%40example.com/authenticate`,
      bodyHash: createHash('sha256').update(request.body).digest('hex'),
    })
    expect(payload.nbf).toBe(payload.iat)
    expect(payload.exp).toBe((payload.iat as number) + 10)
    expect(JSON.parse(request.body)).toEqual({ challenge: 'c1', otp: '42' })
    expect(request.contentType).toBe('application/json')
    expect(request.accept).toBe('application/json')
  })

  it('hashes the empty body of a GET or DELETE', async () => {
    await client().identities.delete('ada@example.com')
    const { payload } = await jwtVerify(seen[0].authorization, Buffer.from(secret, 'base64'))
    expect(payload).toMatchObject({ method: 'DELETE', bodyHash: createHash('sha256').update('').digest('hex') })
    expect(seen[0].body).toBe('')
  })

  it.each([
    ['"."', () => client().identities.get('.')],
    ['".."', () => client().authenticate('..', { challenge: 'c', otp: 'o' })],
    ['"." to rename', () => client().identities.rename('.', 'x')],
    ['".." as a device id', () => client().devices.delete('..')],
    ['a lone surrogate', () => client().identities.update('ada\uD800', { locked: true })],
    ['a lone surrogate as a session id', () => client().sessions.get('\uDC00')],
  ])('refuses %s with a PathSegmentError (a TypeError) and sends nothing: fetch would resolve a dot segment', async (_, call) => {
    const error = await call().catch((error: unknown) => error)
    expect(error).toBeInstanceOf(PathSegmentError)
    expect(error).toBeInstanceOf(TypeError)
    expect((error as Error).name).toBe('PathSegmentError')
    expect(seen).toEqual([])
  })

  it('says why a lone surrogate cannot be sent', async () => {
    await expect(client().identities.get('ada\uD800')).rejects.toThrow(
      'The identifier is not well-formed Unicode (it has a lone surrogate), so it cannot be sent in a URL.',
    )
  })

  it('encodes "." and ".." as %2E, as the spec\'s "URL-encoded" reads for them; other dots stay', () => {
    expect(['.', '..', '...', 'a.b', 'a/b'].map(pathSegment)).toEqual(['%2E', '%2E%2E', '...', 'a.b', 'a%2Fb'])
  })

  it('sends "..." and "a.b" as they are: only whole "." and ".." segments are dot segments', async () => {
    await client().identities.get('...')
    await client().identities.get('a.b')
    expect(seen.map((request) => request.url)).toEqual(['/v1/entity/identities/...', '/v1/entity/identities/a.b'])
  })

  it('URL-encodes the identifier in the path, and signs the exact URL it requests', async () => {
    await client().identities.get('a/b c?d')
    expect(seen[0].url).toBe('/v1/entity/identities/a%2Fb%20c%3Fd')
    const { payload } = await jwtVerify(seen[0].authorization, Buffer.from(secret, 'base64'))
    expect(payload.url).toBe(baseUrl + seen[0].url)
  })

  it('updates an identity with a signed POST to its path, the changes as the JSON body', async () => {
    answer = () => ({ status: 200, body: { identifier: 'ada@example.com', locked: true } })
    await expect(client().identities.update('ada@example.com', { locked: true })).resolves.toMatchObject({ locked: true })
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/entity/identities/ada%40example.com', contentType: 'application/json' })
    expect(JSON.parse(seen[0].body)).toEqual({ locked: true })
    const { payload } = await jwtVerify(seen[0].authorization, Buffer.from(secret, 'base64'))
    expect(payload).toMatchObject({ method: 'POST', url: baseUrl + seen[0].url, bodyHash: createHash('sha256').update(seen[0].body).digest('hex') })
  })

  it('renames with PATCH .../rename, removes devices at /tokens, reports sessions as a JSON list', async () => {
    answer = () => ({ status: 200, body: { items: [] } })
    await client().identities.rename('ada@old.example', 'ada@new.example')
    await client().devices.delete('d/1')
    await client().sessions.update([{ id: 's1', clientSessionExpiresAt: '2030-01-01T00:00:00Z' }])
    await client().check()
    expect(seen.map(({ method, url, body }) => [method, url, body])).toEqual([
      ['PATCH', '/v1/entity/identities/ada%40old.example/rename', '{"identifier":"ada@new.example"}'],
      ['DELETE', '/v1/entity/tokens/d%2F1', ''],
      ['PATCH', '/v1/entity/sessions', '[{"id":"s1","clientSessionExpiresAt":"2030-01-01T00:00:00Z"}]'],
      ['POST', '/v1/entity/check', '{"message":"ping"}'],
    ])
    for (const request of seen) {
      const { payload } = await jwtVerify(request.authorization, Buffer.from(secret, 'base64'))
      expect(payload).toMatchObject({ method: request.method, url: baseUrl + request.url, bodyHash: createHash('sha256').update(request.body).digest('hex') })
    }
  })

  it('reads and changes the configuration, lists, reads and logs out sessions, each at its own path', async () => {
    answer = (req) => ({ status: 200, body: req.url === '/v1/entity/sessions' ? { items: [{ id: 's1' }] } : { sessionsEnabled: true } })
    await expect(client().configuration.get()).resolves.toEqual({ sessionsEnabled: true })
    await expect(client().configuration.update({ sessionsEnabled: true })).resolves.toEqual({ sessionsEnabled: true })
    await expect(client().sessions.list()).resolves.toEqual([{ id: 's1' }])
    await expect(client().sessions.get('s/1')).resolves.toEqual({ sessionsEnabled: true })
    await expect(client().sessions.logout('s/1')).resolves.toBeUndefined()
    expect(seen.map(({ method, url, body }) => [method, url, body])).toEqual([
      ['GET', '/v1/entity/configuration', ''],
      ['PATCH', '/v1/entity/configuration', '{"sessionsEnabled":true}'],
      ['GET', '/v1/entity/sessions', ''],
      ['GET', '/v1/entity/sessions/s%2F1', ''],
      ['DELETE', '/v1/entity/sessions/s%2F1', ''],
    ])
    expect(seen.map((request) => request.contentType)).toEqual([undefined, 'application/json', undefined, undefined, undefined])
  })

  it('lists without a query when no paging is asked for', async () => {
    answer = () => ({ status: 200, body: [] })
    await client().identities.list()
    await client().identities.list({ page: 3 })
    expect(seen.map((request) => request.url)).toEqual(['/v1/entity/identities', '/v1/entity/identities?page=3'])
  })

  it('requests under a base URL with a path, and signs that URL', async () => {
    await createClient({ baseUrl: baseUrl + '/gateway/', key, secret }).identities.get('ada')
    expect(seen.map((request) => request.url)).toEqual(['/gateway/v1/entity/identities/ada'])
    const { payload } = await jwtVerify(seen[0].authorization, Buffer.from(secret, 'base64'), { audience: baseUrl + '/gateway' })
    expect(payload.url).toBe(baseUrl + '/gateway/v1/entity/identities/ada')
  })

  it('passes list paging as the query, signed as part of the URL', async () => {
    await client().identities.list({ page: 2, limit: 10 })
    expect(seen[0].url).toBe('/v1/entity/identities?page=2&limit=10')
    const { payload } = await jwtVerify(seen[0].authorization, Buffer.from(secret, 'base64'))
    expect(payload.url).toBe(baseUrl + '/v1/entity/identities?page=2&limit=10')
  })
})

describe('createClient: answers', () => {
  it('tells a new identity (201) from a known one (200) on enrol', async () => {
    answer = () => ({ status: 201, body: { id: 'e1', identity: { identifier: 'ada@example.com' } } })
    await expect(client().enroll({ identifier: 'ada@example.com' })).resolves.toMatchObject({ created: true, enrollment: { id: 'e1' } })
    answer = () => ({ status: 200, body: { id: 'e2' } })
    await expect(client().enroll({ identifier: 'ada@example.com' })).resolves.toMatchObject({ created: false })
  })

  it('turns problem JSON into a ServiceError with status, title, detail and field errors', async () => {
    const errors = { identifier: [{ code: 'c1051bb4-d103-4f74-8988-acbcafc7fdc3', message: 'This value should not be blank.' }] }
    answer = () => ({
      status: 400,
      body: {
        type: 'https://e/400',
        title: 'Bad Request',
        status: 400,
        detail: 'The submitted data is invalid.',
        instance: '/v1/entity/identities/enroll',
        errors,
      },
    })
    const error = await client()
      .enroll({ identifier: '' })
      .catch((e) => e)
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({
      status: 400,
      title: 'Bad Request',
      detail: 'The submitted data is invalid.',
      instance: '/v1/entity/identities/enroll',
      errors,
    })
  })

  it('confirms on a 200 only (spec section 4, "On 200"): any other success from authenticate is a ServiceError of its status', async () => {
    answer = () => ({ status: 200, body: { identifier: 'ada@example.com', session: null } })
    await expect(client().authenticate('ada@example.com', { challenge: 'c', otp: 'o' })).resolves.toEqual({ identifier: 'ada@example.com', session: null })
    for (const status of [201, 202, 203, 204, 206, 299]) {
      answer = () => ({ status, body: status === 204 ? undefined : { identifier: 'ada@example.com' } })
      const error = await client()
        .authenticate('ada@example.com', { challenge: 'c', otp: 'o' })
        .catch((e) => e)
      expect(error, String(status)).toBeInstanceOf(ServiceError)
      expect(error).toMatchObject({ status, title: 'Not confirmed', detail: `authenticate answered ${status}, and only a 200 confirms.` })
    }
  })

  it('follows no redirect: a 3xx is a ServiceError of its status, and nothing goes where it points', async () => {
    for (const status of [301, 302, 303, 307, 308]) {
      seen = []
      answer = (req) => (req.url === '/elsewhere' ? { status: 200, body: {} } : { status, headers: { Location: `${baseUrl}/elsewhere` } })
      const error = await client()
        .authenticate('ada@example.com', { challenge: 'c', otp: 'o' })
        .catch((e) => e)
      expect(error, String(status)).toBeInstanceOf(ServiceError)
      expect(error.status).toBe(status)
      expect(seen.map((request) => request.url)).toEqual(['/v1/entity/identities/ada%40example.com/authenticate'])
    }
  })

  it('keeps the status of an error without a problem body, and the first 200 characters of what it said', async () => {
    answer = () => ({ status: 423, body: 'locked' })
    await expect(client().authenticate('a', { challenge: 'c', otp: 'o' })).rejects.toMatchObject({
      name: 'ServiceError',
      status: 423,
      title: 'HTTP 423',
      detail: 'locked',
    })
    answer = () => ({ status: 502, body: 'x'.repeat(300) })
    await expect(client().check()).rejects.toMatchObject({ status: 502, detail: 'x'.repeat(200) })
    answer = () => ({ status: 500, body: '"a JSON string"' })
    await expect(client().check()).rejects.toMatchObject({ status: 500, title: 'HTTP 500', detail: '"a JSON string"' })
  })

  it('reads no more than 16 MiB of an answer: a longer one is a ServiceError, its download cancelled, even for a 200', async () => {
    const chunk = new Uint8Array(1024 * 1024).fill(0x20)
    let pulled = 0
    let cancelled = false
    // 64 MiB of spaces, which would parse as nothing at all: a proxy's or a broken service's answer.
    const endless = () =>
      new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulled++ === 64) return controller.close()
          controller.enqueue(chunk)
        },
        cancel() {
          cancelled = true
        },
      })
    const huge = createClient({ baseUrl, key, secret, fetch: async () => new Response(endless(), { status: 200 }) })
    const error = await huge.authenticate('ada@example.com', { challenge: 'c', otp: 'o' }).catch((e) => e)
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).not.toBeInstanceOf(ServiceUnreachableError)
    expect(error.message).toBe('Answer too large: The service answered 200 with more than 16 MiB.')
    expect(cancelled).toBe(true)
    expect(pulled).toBeLessThanOrEqual(19)
  })

  it('reads an answer of exactly 16 MiB whole', async () => {
    // A JSON string of 16 MiB to the byte: its quotes and 16 MiB − 2 letters.
    const body = `"${'a'.repeat(LARGEST - 2)}"`
    const exact = createClient({ baseUrl, key, secret, fetch: async () => new Response(body, { status: 400 }) })
    const error = await exact.identities.get('ada').catch((e) => e)
    expect([error instanceof ServiceError, error.title, error.detail]).toEqual([true, 'HTTP 400', body.slice(0, 200)])
  })

  it('decodes a character whose bytes two chunks of the answer split', async () => {
    const bytes = new TextEncoder().encode(JSON.stringify({ detail: 'Zoë’s key is locked.' }))
    const cut = bytes.indexOf(0xc3) + 1
    const split = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, cut))
        controller.enqueue(bytes.slice(cut))
        controller.close()
      },
    })
    const answering = createClient({ baseUrl, key, secret, fetch: async () => new Response(split, { status: 423 }) })
    const error = await answering.identities.get('zoe').catch((e) => e)
    expect(error.detail).toBe('Zoë’s key is locked.')
  })

  it('reads an answer with no body at all as empty: a 304 says nothing of its own', async () => {
    const bodiless = createClient({ baseUrl, key, secret, fetch: async () => new Response(null, { status: 304 }) })
    const error = await bodiless.identities.get('ada').catch((e) => e)
    expect([error instanceof ServiceError, error.status, error.detail]).toEqual([true, 304, ''])
  })

  it('reports a fetch that rejects with nothing at all as unreachable, not with an error of its own', async () => {
    const broken = createClient({ baseUrl, key, secret, fetch: () => Promise.reject(undefined) })
    const error = await broken.check().catch((e) => e)
    expect(error).toBeInstanceOf(ServiceUnreachableError)
    expect(error.detail).toBe(`POST ${baseUrl}/v1/entity/check failed.`)
  })

  it('gives up after its timeout with a ServiceUnreachableError', async () => {
    answer = () => ({ status: 200, body: {}, delay: 2000 })
    const error = await client(500)
      .identities.get('slow')
      .catch((e) => e)
    expect(error).toBeInstanceOf(ServiceUnreachableError)
    expect(error.status).toBe(0)
    expect(error.detail).toContain('500 ms')
  })

  it('stops a request when its signal aborts, rejecting with the reason, as fetch does', async () => {
    answer = () => ({ status: 200, body: {}, delay: 2000 })
    const caller = new AbortController()
    const call = client().identities.get('slow', { signal: caller.signal })
    const reason = new DOMException('The page went away.', 'AbortError')
    caller.abort(reason)
    await expect(call).rejects.toBe(reason)
  })

  it('keeps its timeout beside a signal that never aborts', async () => {
    answer = () => ({ status: 200, body: {}, delay: 2000 })
    const error = await client(500)
      .identities.get('slow', { signal: new AbortController().signal })
      .catch((e) => e)
    expect([error instanceof ServiceUnreachableError, error.detail]).toEqual([true, 'No answer within 500 ms.'])
  })

  it('hands every method’s signal to its request', async () => {
    const aborted = AbortSignal.abort(new Error('aborted by the caller'))
    const seen: (AbortSignal | null | undefined)[] = []
    const recording = createClient({
      baseUrl,
      key,
      secret,
      fetch: async (_url, init) => {
        seen.push(init?.signal)
        throw init?.signal?.reason
      },
    })
    const options = { signal: aborted }
    const calls = [
      recording.check(options),
      recording.enroll({ identifier: 'a' }, options),
      recording.identities.get('a', options),
      recording.identities.list({}, options),
      recording.identities.update('a', { locked: true }, options),
      recording.identities.rename('a', 'b', options),
      recording.identities.delete('a', options),
      recording.devices.delete('d', options),
      recording.authenticate('a', { challenge: 'c', otp: 'o' }, options),
      recording.configuration.get(options),
      recording.configuration.update({ sessionsEnabled: true }, options),
      recording.sessions.list(options),
      recording.sessions.get('s', options),
      recording.sessions.update([], options),
      recording.sessions.logout('s', options),
    ]
    const settled = await Promise.allSettled(calls)
    expect(settled).toEqual(calls.map(() => ({ status: 'rejected', reason: aborted.reason })))
    expect(seen.map((signal) => signal?.aborted)).toEqual(calls.map(() => true))
  })

  it('reports a service that is not there as unreachable', async () => {
    const gone = createClient({ baseUrl: 'http://127.0.0.1:9', key, secret, timeout: 2000 })
    const error = await gone.identities.get('x').catch((e) => e)
    expect(error).toBeInstanceOf(ServiceUnreachableError)
    // fetch's own error, kept as the cause.
    expect(error.cause).toBeInstanceOf(TypeError)
  })
})

describe('createClient: options', () => {
  // Each is refused when the client is created, with the option's name first, before any request.
  it.each([
    ['no options at all', undefined, /^baseUrl must be the service's http\(s\) base URL, such as "https:\/\/api\.service-auth\.example"; got undefined\.$/],
    ['an empty object', {}, /^baseUrl must be .*; got undefined\.$/],
    ['a baseUrl that is not a URL', { baseUrl: 'api.service-auth.example' }, /^baseUrl must be .*; got "api\.service-auth\.example"\.$/],
    ['a baseUrl of another scheme', { baseUrl: 'ftp://api.example' }, /^baseUrl must be /],
    ['a baseUrl with a query', { baseUrl: 'https://api.example/?x=1' }, /^baseUrl must be /],
    ['a baseUrl that is a URL object', { baseUrl: new URL('https://api.example') }, /^baseUrl must be .*; got https:\/\/api\.example\/\.$/],
    ['no key', { baseUrl: 'https://api.example', secret }, /^key must be the API key the service issued; got undefined\.$/],
    ['a blank key', { baseUrl: 'https://api.example', key: ' ', secret }, /^key must be the API key the service issued; got " "\.$/],
    ['a key that is not a string', { baseUrl: 'https://api.example', key: 7, secret }, /^key must be .*; got 7\.$/],
    ['no secret', { baseUrl: 'https://api.example', key }, /^secret \(the API secret\) is missing/],
    ['a secret that is a number', { baseUrl: 'https://api.example', key, secret: 5 }, /^secret \(the API secret\) must be .*, as a string; got a number\.$/],
    ['a short secret', { baseUrl: 'https://api.example', key, secret: 'changeme' }, /^secret \(the API secret\) decodes to 6 bytes/],
    ['a timeout of 0', { baseUrl: 'https://api.example', key, secret, timeout: 0 }, /^timeout must be a number of milliseconds, more than 0; got 0\.$/],
    ['a timeout of Infinity', { baseUrl: 'https://api.example', key, secret, timeout: Infinity }, /^timeout must be .*; got Infinity\.$/],
    ['a timeout of NaN', { baseUrl: 'https://api.example', key, secret, timeout: Number.NaN }, /^timeout must be .*; got NaN\.$/],
    ['a key that is an object', { baseUrl: 'https://api.example', key: {}, secret }, /^key must be .*; got \[object Object\]\.$/],
    ['a timeout that is not a number', { baseUrl: 'https://api.example', key, secret, timeout: '5000' }, /^timeout must be .*; got "5000"\.$/],
    ['a fetch that is not a function', { baseUrl: 'https://api.example', key, secret, fetch: {} }, /^fetch must be a function/],
  ])('refuses %s with a TypeError naming the option', (_, options, message) => {
    const create = () => createClient(options as never)
    expect(create).toThrow(TypeError)
    expect(create).toThrow(message)
  })

  it('never shows the secret in its message', () => {
    const wrong = 'not base64 but secret!'
    const error = (() => {
      try {
        createClient({ baseUrl: 'https://api.example', key, secret: wrong })
      } catch (caught) {
        return caught as Error
      }
    })()
    expect(error?.message).toMatch(/^secret /)
    expect(error?.message).not.toContain(wrong)
  })

  it('shows its key and its base URL, without a trailing slash: what the controller checks a token against', () => {
    expect(createClient({ baseUrl: baseUrl + '//', key, secret })).toMatchObject({ key, baseUrl })
  })

  it('takes a base URL with a path or a trailing slash, and signs for it without the slash', async () => {
    await createClient({ baseUrl: baseUrl + '/', key, secret }).check()
    expect(seen.map((request) => request.url)).toEqual(['/v1/entity/check'])
    await expect(jwtVerify(seen[0].authorization, Buffer.from(secret, 'base64'), { audience: baseUrl })).resolves.toBeTruthy()
    expect(() => createClient({ baseUrl: 'https://gateway.example/service-auth', key, secret })).not.toThrow()
  })
})
