import { beforeEach, describe, expect, it, vi } from 'vitest'
import { failure, isFailure, malformed, NO_RESPONSE, send, type Request } from '../src/http.js'
import { FakeService, held } from './helpers.js'

let service: FakeService
const URL = 'https://api.test.example/thing'

beforeEach(() => {
  service = new FakeService()
})

describe('failure', () => {
  it('carries the reason and the status', () => {
    expect(failure('controller', new Response(null, { status: 403 }))).toEqual({ reason: 'controller', status: 403, retryAfter: 0 })
  })

  it('has status 0 (NO_RESPONSE) without a response', () => {
    expect(NO_RESPONSE).toBe(0)
    expect(failure('network')).toEqual({ reason: 'network', status: 0, retryAfter: 0 })
  })

  it.each([
    ['120', 120_000],
    ['0', 0],
    ['Wed, 21 Oct 2015 07:28:00 GMT', 0],
    ['soon', 0],
  ])('reads Retry-After %j as %i ms', (header, ms) => {
    expect(failure('service', new Response(null, { status: 503, headers: { 'Retry-After': header } })).retryAfter).toBe(ms)
  })

  it('is told apart from other errors', () => {
    expect(isFailure(failure('network'))).toBe(true)
    expect(isFailure(new TypeError('x'))).toBe(false)
    expect(isFailure(new DOMException('aborted', 'AbortError'))).toBe(false)
    expect(isFailure(undefined)).toBe(false)
  })
})

describe('send', () => {
  // Refused statuses as the status poll has them.
  const asService = () => 'service' as const
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

  it('fails a 2xx that read cannot use with the Failure read throws: malformed() makes it "response", naming the field', async () => {
    service.fetch.mockImplementation(async () => Response.json({ a: 1 }, { status: 201, headers: { 'Retry-After': '3' } }))
    await expect(
      send(
        request((_, res) => {
          throw malformed(res, 'a')
        }),
      ),
    ).rejects.toEqual({ reason: 'response', status: 201, retryAfter: 3000, field: 'a' })
    await expect(
      send(
        request((_, res) => {
          throw failure('location', res)
        }),
      ),
    ).rejects.toEqual({ reason: 'location', status: 201, retryAfter: 3000 })
  })

  it('passes on what read makes of the answer, falsy results too', async () => {
    service.fetch.mockImplementation(async () => Response.json({}))
    for (const result of [null, undefined, 0, '', false]) expect(await send(request(() => result))).toBe(result)
  })

  it('answers with the outcome given for a status, without asking read or refused', async () => {
    service.fetch.mockImplementation(async () => new Response(null, { status: 410 }))
    const read = vi.fn(() => 'read')
    const refused = vi.fn(() => 'service' as const)
    expect(await send(request(read, { refused, outcomes: { 404: 'gone', 410: 'expired' } }))).toBe('expired')
    expect(read).not.toHaveBeenCalled()
    expect(refused).not.toHaveBeenCalled()
    await expect(send(request(read, { refused, outcomes: { 404: 'gone' } }))).rejects.toMatchObject({ reason: 'service', status: 410 })
  })

  it('fails any other status with the reason refused() gives for it, without asking read', async () => {
    service.fetch.mockImplementationOnce(async () => new Response(null, { status: 503, headers: { 'Retry-After': '7' } }))
    const read = vi.fn(() => 1)
    const refused = vi.fn(() => 'rejected' as const)
    await expect(send(request(read, { refused }))).rejects.toEqual({ reason: 'rejected', status: 503, retryAfter: 7000 })
    expect(refused).toHaveBeenCalledWith(503)
    expect(read).not.toHaveBeenCalled()
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
      const res = Response.json({ a: 1 })
      res.json = async () => {
        controller.abort(reason)
        throw new DOMException('The operation was aborted.', 'AbortError')
      }
      return res
    })
    const read = vi.fn(() => 1)
    await expect(send(request(read, { signal: controller.signal }))).rejects.toBe(reason)
    expect(read).not.toHaveBeenCalled()
  })

  it('turns a network error into a "network" Failure', async () => {
    service.fetch.mockImplementationOnce(async () => Promise.reject(new TypeError('Failed to fetch')))
    await expect(send(request(() => 1))).rejects.toEqual({ reason: 'network', status: 0, retryAfter: 0 })
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
})
