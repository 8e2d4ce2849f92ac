import { beforeEach, describe, expect, it, vi } from 'vitest'
import { failure, isFailure, send } from '../src/http'
import { FakeService, held } from './helpers'

let service: FakeService
const URL = 'https://api.test.example/thing'

beforeEach(() => {
  service = new FakeService()
})

describe('failure', () => {
  it('carries the reason and the status', () => {
    expect(failure('controller', new Response(null, { status: 403 }))).toEqual({ reason: 'controller', status: 403, retryAfter: 0 })
  })

  it('has status 0 without a response', () => {
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

  it('passes the init through, with a signal that follows the caller\'s', async () => {
    service.fetch.mockImplementationOnce(async () => new Response(null))
    const caller = new AbortController()
    expect(await send(URL, { credentials: 'omit', cache: 'no-store' }, caller.signal, () => 1, asService)).toBe(1)
    const [[url, init]] = service.fetch.mock.calls
    expect(url).toBe(URL)
    expect(init).toMatchObject({ credentials: 'omit', cache: 'no-store' })
    caller.abort()
    expect(init!.signal!.aborted).toBe(true)
  })

  it('hands the JSON body of a 2xx response, and the response, to read', async () => {
    const signal = new AbortController().signal
    service.fetch.mockImplementationOnce(async () => Response.json({ a: 1 }, { status: 202 }))
    const got = await send(URL, {}, signal, (body, res) => [res.status, body], asService)
    expect(got).toEqual([202, { a: 1 }])
  })

  it.each([
    ['not JSON', '<p>hi</p>'],
    ['JSON null', 'null'],
  ])('gives read an empty body when it is %s', async (_, text) => {
    service.fetch.mockImplementationOnce(async () => new Response(text))
    expect(await send(URL, {}, new AbortController().signal, (body) => body, asService)).toEqual({})
  })

  it('fails a 2xx that read finds nothing usable in as "response", or the reason given', async () => {
    service.fetch.mockImplementation(async () => Response.json({ a: 1 }, { status: 201 }))
    const signal = new AbortController().signal
    await expect(send(URL, {}, signal, () => undefined, asService)).rejects.toEqual({ reason: 'response', status: 201, retryAfter: 0 })
    await expect(send(URL, {}, signal, () => undefined, asService, 'location')).rejects.toEqual({ reason: 'location', status: 201, retryAfter: 0 })
  })

  it('fails any other status with the reason refused() gives for it, without asking read', async () => {
    service.fetch.mockImplementationOnce(async () => new Response(null, { status: 503, headers: { 'Retry-After': '7' } }))
    const read = vi.fn(() => 1)
    const refused = vi.fn(() => 'rejected' as const)
    await expect(send(URL, {}, new AbortController().signal, read, refused)).rejects.toEqual({ reason: 'rejected', status: 503, retryAfter: 7000 })
    expect(refused).toHaveBeenCalledWith(503)
    expect(read).not.toHaveBeenCalled()
  })

  it('turns a network error into a "network" Failure', async () => {
    service.fetch.mockImplementationOnce(async () => Promise.reject(new TypeError('Failed to fetch')))
    await expect(send(URL, {}, new AbortController().signal, () => 1, asService)).rejects.toEqual({ reason: 'network', status: 0, retryAfter: 0 })
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
    const pending = send(URL, {}, controller.signal, () => 1, asService)
    const reason = new Error('stopped')
    controller.abort(reason)
    await expect(pending).rejects.toBe(reason)
  })
})
