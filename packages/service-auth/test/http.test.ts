import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ServiceAuthFailure } from '../src/failure.js'
import { send, type Request } from '../src/http.js'
import { FakeService, failureOf, held } from './helpers.js'

let service: FakeService
const URL = 'https://api.test.example/thing'

beforeEach(() => {
  service = new FakeService()
})

/** A JSON body of `size` bytes in chunks of 64 KiB, with no Content-Length; its `pulled` counts the chunks read, `cancelled` whether the rest was cancelled. */
function endless(size = Number.POSITIVE_INFINITY) {
  const chunk = new Uint8Array(65_536).fill(0x20)
  const body = { pulled: 0, cancelled: false, stream: undefined as unknown as ReadableStream<Uint8Array> }
  body.stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (body.pulled * chunk.length >= size) return controller.close()
      body.pulled++
      controller.enqueue(chunk)
    },
    cancel() {
      body.cancelled = true
    },
  })
  return body
}

describe('send', () => {
  // Refused statuses as the status poll has them.
  const asService = (res: Response) => new ServiceAuthFailure('service', '', res)
  /** A request to URL whose read and refused are given, with a signal of its own unless given. */
  const request = <T>(read: Request<T>['read'], more: Omit<Partial<Request<T>>, 'init'> & { init?: RequestInit; signal?: AbortSignal } = {}): Request<T> => {
    const { signal = new AbortController().signal, init = {}, ...rest } = more
    return { url: URL, init: { ...init, signal }, read, refused: asService, ...rest }
  }

  it("passes the init through, with a signal that follows the caller's", async () => {
    service.fetch.mockImplementationOnce(async () => new Response(null))
    const caller = new AbortController()
    expect(await send(request(() => 1, { init: { credentials: 'omit', cache: 'no-store' }, signal: caller.signal }))).toBe(1)
    const [[url, init]] = service.fetch.mock.calls
    expect(url).toBe(URL)
    expect(init).toMatchObject({ credentials: 'omit', cache: 'no-store' })
    caller.abort()
    expect(init!.signal!.aborted).toBe(true)
  })

  it('hands the JSON body of a 2xx response, and the response, to read', async () => {
    service.fetch.mockImplementationOnce(async () => Response.json({ a: 1 }, { status: 202 }))
    const got = await send(request((body, res) => [res.status, body]))
    expect(got).toEqual([202, { a: 1 }])
  })

  it.each([
    ['not JSON', '<p>hi</p>'],
    ['JSON null', 'null'],
    ['a JSON number', '5'],
    ['a JSON string', '"signed"'],
  ])('gives read an empty body when it is %s', async (_, text) => {
    service.fetch.mockImplementationOnce(async () => new Response(text))
    expect(await send(request((body) => body))).toEqual({})
  })

  it('fails a 2xx that read cannot use with the ServiceAuthFailure read throws, as it is', async () => {
    service.fetch.mockImplementation(async () => Response.json({ a: 1 }, { status: 201, headers: { 'Retry-After': '3' } }))
    const thrown = new ServiceAuthFailure('response', 'no a')
    await expect(
      send(
        request(() => {
          throw thrown
        }),
      ),
    ).rejects.toBe(thrown)
  })

  it('passes on what read makes of the answer, falsy results too', async () => {
    service.fetch.mockImplementation(async () => Response.json({}))
    for (const result of [null, undefined, 0, '', false]) expect(await send(request(() => result))).toBe(result)
  })

  it('answers with the outcome given for a status, without asking read or refused', async () => {
    service.fetch.mockImplementation(async () => new Response(null, { status: 410 }))
    const read = vi.fn(() => 'read')
    const refused = vi.fn((res: Response) => new ServiceAuthFailure('service', '', res))
    expect(await send(request(read, { refused, outcomes: { 404: 'gone', 410: 'expired' } }))).toBe('expired')
    expect(read).not.toHaveBeenCalled()
    expect(refused).not.toHaveBeenCalled()
    expect(await failureOf(send(request(read, { refused, outcomes: { 404: 'gone' } })))).toEqual({
      reason: 'service',
      status: 410,
      retryAfter: 0,
      message: '',
      final: false,
    })
  })

  it('fails any other status with the failure refused() makes of the answer, without asking read', async () => {
    const answer = new Response(null, { status: 503, headers: { 'Retry-After': '7' } })
    service.fetch.mockImplementationOnce(async () => answer)
    const read = vi.fn(() => 1)
    const refused = vi.fn((res: Response) => new ServiceAuthFailure('rejected', 'no', res))
    expect(await failureOf(send(request(read, { refused })))).toEqual({ reason: 'rejected', status: 503, retryAfter: 7000, message: 'no', final: true })
    expect(refused).toHaveBeenCalledExactlyOnceWith(answer, undefined)
    expect(read).not.toHaveBeenCalled()
  })

  it.each<[string, object, string | undefined]>([
    ['its detail', { title: 'Forbidden', detail: 'This user may not sign in here.' }, 'This user may not sign in here.'],
    ['its title, without a detail', { title: 'Forbidden' }, 'Forbidden'],
    ['its title, for a detail that is no text', { title: 'Forbidden', detail: 42 }, 'Forbidden'],
    ['nothing, for an empty detail and no title', { detail: '' }, undefined],
    ['nothing, for words that are not text', { title: ['Forbidden'], detail: { text: 'no' } }, undefined],
  ])("hands refused() the problem's own words: %s", async (_, problem, words) => {
    service.fetch.mockImplementationOnce(async () => Response.json(problem, { status: 403, headers: { 'Content-Type': 'application/problem+json' } }))
    const refused = vi.fn((res: Response, _problem?: string) => new ServiceAuthFailure('controller', '', res))
    await send(request(() => 1, { refused })).catch(() => {})
    expect(refused.mock.calls[0]![1]).toBe(words)
  })

  it('passes on a bug in read or refused as it is, never as a "network" failure, which the widget would retry for good', async () => {
    const bug = new TypeError('a bug of ours')
    service.fetch.mockImplementation(async () => Response.json({ a: 1 }))
    await expect(
      send(
        request(() => {
          throw bug
        }),
      ),
    ).rejects.toBe(bug)
    service.fetch.mockImplementation(async () => new Response(null, { status: 500 }))
    await expect(
      send(
        request(() => 1, {
          refused: () => {
            throw bug
          },
        }),
      ),
    ).rejects.toBe(bug)
  })

  it('rejects with the abort reason when aborted while the body is read, rather than reading it as empty', async () => {
    const controller = new AbortController()
    const reason = new Error('stopped')
    service.fetch.mockImplementationOnce(async () => {
      const body = new ReadableStream({
        pull(stream) {
          controller.abort(reason)
          stream.error(new DOMException('The operation was aborted.', 'AbortError'))
        },
      })
      return new Response(body, { headers: { 'Content-Type': 'application/json' } })
    })
    const read = vi.fn(() => 1)
    await expect(send(request(read, { signal: controller.signal }))).rejects.toBe(reason)
    expect(read).not.toHaveBeenCalled()
  })

  it('fails as "network" when its time runs out while the body is read, rather than reading it as a bad answer', async () => {
    vi.useFakeTimers()
    try {
      service.fetch.mockImplementationOnce(async (_, init) => {
        // A body that never comes, errored when the request's signal aborts, as fetch's is.
        const body = new ReadableStream({
          start(stream) {
            init!.signal!.addEventListener('abort', () => stream.error(new DOMException('The operation was aborted.', 'AbortError')))
          },
        })
        return new Response(body, { headers: { 'Content-Type': 'application/json' } })
      })
      const read = vi.fn(() => 1)
      const failure = failureOf(send(request(read, { unreachable: 'no answer' })))
      await vi.advanceTimersByTimeAsync(30_000)
      expect(await failure).toEqual({ reason: 'network', status: 0, retryAfter: 0, message: 'no answer', final: false })
      expect(read).not.toHaveBeenCalled()
    } finally {
      vi.useRealTimers()
    }
  })

  it('turns a network error into a "network" failure, whose message is the request\'s `unreachable`, if any', async () => {
    service.fetch.mockImplementation(async () => Promise.reject(new TypeError('Failed to fetch')))
    expect(await failureOf(send(request(() => 1)))).toEqual({ reason: 'network', status: 0, retryAfter: 0, message: '', final: false })
    expect(await failureOf(send(request(() => 1, { unreachable: 'no answer' })))).toEqual({
      reason: 'network',
      status: 0,
      retryAfter: 0,
      message: 'no answer',
      final: false,
    })
  })

  it('rejects with the abort reason, not a Failure, when aborted', async () => {
    service.fetch.mockImplementationOnce((_, init) => {
      const { promise } = held<Response>()
      return new Promise((resolve, reject) => {
        init!.signal!.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')))
        promise.then(resolve)
      })
    })
    const controller = new AbortController()
    const pending = send(request(() => 1, { signal: controller.signal }))
    const reason = new Error('stopped')
    controller.abort(reason)
    await expect(pending).rejects.toBe(reason)
  })

  it('reads only JSON: any other body is cancelled unread, and read gets an empty one', async () => {
    const body = endless()
    service.fetch.mockImplementationOnce(async () => new Response(body.stream, { headers: { 'Content-Type': 'text/html' } }))
    expect(await send(request((json) => json))).toEqual({})
    expect(body.pulled).toBeLessThanOrEqual(1)
    expect(body.cancelled).toBe(true)
  })

  it('reads JSON whatever the case its type is spelled in (media types are case-insensitive)', async () => {
    service.fetch.mockImplementationOnce(async () => new Response('{"a":1}', { headers: { 'Content-Type': 'Application/JSON; charset=UTF-8' } }))
    expect(await send(request((json) => json))).toEqual({ a: 1 })
  })

  it('reads JSON of 256 KiB, the most an answer may have, whether its Content-Length says so or not', async () => {
    const json = JSON.stringify({ a: 'x'.repeat(262_144 - 8) })
    expect(json).toHaveLength(262_144)
    for (const headers of [{ 'Content-Type': 'application/json' }, { 'Content-Type': 'application/json', 'Content-Length': '262144' }] as Record<
      string,
      string
    >[]) {
      service.fetch.mockImplementationOnce(async () => new Response(json, { headers }))
      expect(await send(request((body) => (body.a as string).length))).toBe(262_136)
    }
  })

  it('reads a character whose bytes arrive in two chunks as that character, and one cut short as no JSON', async () => {
    const bytes = new TextEncoder().encode('{"detail":"Scannen Sie den Code, s\'il vous plaît"}')
    const split = bytes.indexOf(0xc3) + 1
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, split))
        controller.enqueue(bytes.slice(split))
        controller.close()
      },
    })
    service.fetch.mockImplementationOnce(async () => new Response(body, { headers: { 'Content-Type': 'application/json' } }))
    expect(await send(request((json) => json.detail))).toBe("Scannen Sie den Code, s'il vous plaît")
    // A character cut short at the end is no JSON, as response.json() has it: not a character dropped.
    const cut = new Uint8Array([...new TextEncoder().encode('{"detail":"x"}'), 0xc3])
    service.fetch.mockImplementationOnce(async () => new Response(cut, { headers: { 'Content-Type': 'application/json' } }))
    expect(await send(request((json) => json))).toEqual({})
  })

  it('gives read an empty body for JSON that is no object, or no body at all', async () => {
    for (const text of ['null', '5', '"signed"', '[1]', null]) {
      service.fetch.mockImplementationOnce(async () => new Response(text, { headers: { 'Content-Type': 'application/json' } }))
      expect(await send(request((body) => body)), String(text)).toEqual(text == '[1]' ? [1] : {})
    }
  })

  it('fails an answer whose Content-Length is over 256 KiB as "response", for good, naming its size, without reading it', async () => {
    const body = endless()
    service.fetch.mockImplementationOnce(
      async () => new Response(body.stream, { status: 201, headers: { 'Content-Type': 'application/json', 'Content-Length': '5242880' } }),
    )
    const read = vi.fn(() => 1)
    expect(await failureOf(send(request(read)))).toEqual({
      reason: 'response',
      status: 201,
      retryAfter: 0,
      message: 'an answer of 5242880 B or more (201) is over 256 KB.',
      final: true,
    })
    expect(body.pulled).toBeLessThanOrEqual(1)
    expect(body.cancelled).toBe(true)
    expect(read).not.toHaveBeenCalled()
  })

  it('stops reading an answer with no Content-Length once it passes 256 KiB, whatever its status, and fails it so', async () => {
    for (const status of [200, 503]) {
      const body = endless()
      service.fetch.mockImplementationOnce(async () => new Response(body.stream, { status, headers: { 'Content-Type': 'application/json' } }))
      const refused = vi.fn((res: Response) => new ServiceAuthFailure('service', '', res))
      expect(await failureOf(send(request(() => 1, { refused })))).toEqual({
        reason: 'response',
        status,
        retryAfter: 0,
        message: `an answer of 327680 B or more (${status}) is over 256 KB.`,
        final: true,
      })
      // Five chunks of 64 KiB: the fifth passes the limit, and nothing after it is read.
      expect(body.pulled).toBeLessThanOrEqual(6)
      expect(body.cancelled).toBe(true)
      expect(refused).not.toHaveBeenCalled()
    }
  })
})
