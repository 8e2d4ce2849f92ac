import { beforeEach, describe, expect, it, vi } from 'vitest'
import { failure, isFailure, MALFORMED, send, type Request } from '../src/http'
import { FakeService, held } from './helpers'

let service: FakeService
const URL = 'https://api.test.example/thing'

beforeEach(() => {
  service = new FakeService()
})

describe('failure', () => {
  it('carries the reason and the status', () => {
    expect(failure('controller', new Response(null, { status: 403 }))).toEqual({ reason: 'controller', status: 403, retryAfter: 0, message: '' })
  })

  it('has status 0 without a response', () => {
    expect(failure('network')).toEqual({ reason: 'network', status: 0, retryAfter: 0, message: '' })
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
  /** A request to URL that reads every 2xx as `read` says; the rest as given. */
  const request = <T>(read: Request<T>['read'], rest: Partial<Request<T>> = {}): Request<T> => ({
    url: URL,
    init: {},
    signal: new AbortController().signal,
    read,
    refused: asService,
    ...rest,
  })

  it('passes the init through, with a signal that follows the caller\'s', async () => {
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
  ])('gives read an empty body when it is %s', async (_, text) => {
    service.fetch.mockImplementationOnce(async () => new Response(text))
    expect(await send(request((body) => body))).toEqual({})
  })

  it('fails a 2xx that read finds malformed as "response", or the reason given', async () => {
    service.fetch.mockImplementation(async () => Response.json({ a: 1 }, { status: 201 }))
    await expect(send(request(() => MALFORMED))).rejects.toMatchObject({ reason: 'response', status: 201, retryAfter: 0 })
    await expect(send(request(() => MALFORMED, { malformed: 'location' }))).rejects.toMatchObject({ reason: 'location', status: 201 })
  })

  it('takes null, 0 or false from read as results, not as malformed', async () => {
    for (const result of [null, 0, false]) {
      service.fetch.mockImplementationOnce(async () => Response.json({}))
      expect(await send(request(() => result))).toBe(result)
    }
  })

  it('fails any other status with the reason refused() gives for it, without asking read, and carries the problem detail', async () => {
    service.fetch.mockImplementationOnce(async () => Response.json({ detail: 'Down for maintenance.' }, { status: 503, headers: { 'Retry-After': '7' } }))
    const read = vi.fn(() => 1)
    const refused = vi.fn(() => 'rejected' as const)
    await expect(send(request(read, { refused }))).rejects.toEqual({ reason: 'rejected', status: 503, retryAfter: 7000, message: 'Down for maintenance.' })
    expect(refused).toHaveBeenCalledWith(503)
    expect(read).not.toHaveBeenCalled()
  })

  it('gives the answer named for a status instead of failing', async () => {
    service.fetch.mockImplementationOnce(async () => new Response(null, { status: 410 }))
    expect(await send(request(() => 'pending', { answers: { 410: 'expired' } }))).toBe('expired')
  })

  it('turns a network error into a "network" Failure', async () => {
    service.fetch.mockImplementationOnce(async () => Promise.reject(new TypeError('Failed to fetch')))
    await expect(send(request(() => 1))).rejects.toEqual({ reason: 'network', status: 0, retryAfter: 0, message: '' })
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
