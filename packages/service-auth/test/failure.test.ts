// The one failure type: what it carries, the error event's detail it becomes, and its console line.
import { describe, expect, it } from 'vitest'
import { malformed, NO_RESPONSE, ServiceAuthFailure } from '../src/failure.js'
import { factsOf } from './helpers.js'

describe('ServiceAuthFailure', () => {
  it('is an Error, carrying the reason, the status and its message', () => {
    const failure = new ServiceAuthFailure('controller', 'refused', new Response(null, { status: 403 }))
    expect(failure).toBeInstanceOf(Error)
    expect(factsOf(failure)).toEqual({ reason: 'controller', status: 403, retryAfter: 0, message: 'refused', final: false })
  })

  it('has status 0 (NO_RESPONSE) without a response, and no message unless given one', () => {
    expect(NO_RESPONSE).toBe(0)
    expect(factsOf(new ServiceAuthFailure('network'))).toEqual({ reason: 'network', status: 0, retryAfter: 0, message: '', final: false })
  })

  it.each([
    ['120', 120_000],
    ['0', 0],
    ['Wed, 21 Oct 2015 07:28:00 GMT', 0],
    ['soon', 0],
  ])('reads Retry-After %j as %i ms', (header, ms) => {
    expect(new ServiceAuthFailure('service', '', new Response(null, { status: 503, headers: { 'Retry-After': header } })).retryAfter).toBe(ms)
  })

  it.each([
    ['rejected', true],
    ['config', true],
    ['network', false],
    ['service', false],
    ['response', false],
    ['controller', false],
    ['location', false],
    ['image', false],
    ['internal', false],
  ] as const)('is final (no retry by itself can mend it) for %s: %s, unless told otherwise', (reason, final) => {
    expect(new ServiceAuthFailure(reason).final).toBe(final)
    expect(new ServiceAuthFailure(reason, '', undefined, !final).final).toBe(!final)
  })

  it("becomes an error event's detail in one way: retryAfter exactly when the widget retries by itself", () => {
    const failure = new ServiceAuthFailure('service', 'down', new Response(null, { status: 503, headers: { 'Retry-After': '2' } }))
    expect(failure.detail(true)).toEqual({ reason: 'service', status: 503, retryAfter: 2000 })
    expect(failure.detail(false)).toEqual({ reason: 'service', status: 503 })
    expect(failure.detail()).toEqual({ reason: 'service', status: 503 })
  })
})

describe('malformed', () => {
  it('is a "response" failure that names the field at fault and the status', () => {
    expect(factsOf(malformed(new Response(null, { status: 201, headers: { 'Retry-After': '3' } }), 'pollingUrl'))).toEqual({
      reason: 'response',
      status: 201,
      retryAfter: 3000,
      message: "the service's pollingUrl is missing or invalid (201).",
      final: false,
    })
  })
})
