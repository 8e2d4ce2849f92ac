// @vitest-environment node
// The service's problem answers as the client throws them: what an integrator's catch reads.
import { describe, expect, it } from 'vitest'
import { ServiceError, ServiceUnreachableError } from '../../src/server/index.js'

describe('ServiceError', () => {
  it('reads an RFC 7807 problem: status, title, detail, type, instance and the field errors', () => {
    const errors = { identifier: [{ code: 'c1', message: 'This value should not be blank.' }] }
    const error = new ServiceError(400, { type: 'https://e/400', title: 'Bad Request', detail: 'Invalid.', instance: '/v1/x', errors })
    expect(error).toMatchObject({
      name: 'ServiceError',
      status: 400,
      title: 'Bad Request',
      detail: 'Invalid.',
      type: 'https://e/400',
      instance: '/v1/x',
      errors,
    })
    // The field at fault, which the detail alone does not name.
    expect(error.message).toBe('Bad Request: Invalid. identifier: This value should not be blank.')
  })

  it('names each field once, with all of its messages, and every field at fault', () => {
    const errors = {
      otp: [
        { code: 'c1', message: 'This value should not be blank.' },
        { code: 'c2', message: 'This value should have 6 characters.' },
      ],
      key: [{ code: 'c3', message: 'This key is unknown.' }],
    }
    expect(new ServiceError(400, { title: 'Bad Request', errors }).message).toBe(
      'Bad Request: otp: This value should not be blank. This value should have 6 characters. key: This key is unknown.',
    )
  })

  it('keeps only well-formed field errors, so that reading them cannot throw, whatever the service answered', () => {
    const otp = [{ code: 'c2', message: 'This value should have 6 characters.' }]
    const error = new ServiceError(400, {
      title: 'Bad Request',
      errors: { otp: [...otp, 'junk', null, undefined, { code: 3, message: 'x' }, { code: 'c3', message: 4 }], key: 'not a list', nothing: [] },
    })
    expect({ ...error.errors }).toEqual({ otp })
    expect(error.message).toBe('Bad Request: otp: This value should have 6 characters.')
    expect({ ...new ServiceError(400, { errors: [otp] }).errors }).toEqual({})
    // A field of that name stays a field, not the object's prototype.
    const proto = new ServiceError(400, { errors: JSON.parse('{"__proto__": [{"code": "c", "message": "m"}]}') }).errors
    expect(Object.getPrototypeOf(proto)).toBeNull()
    expect(Object.keys(proto)).toEqual(['__proto__'])
  })

  it('takes only text for the texts and an object for the errors; anything else is left out', () => {
    const error = new ServiceError(500, { title: 7, detail: { x: 1 }, type: '', instance: null, errors: 'none' })
    expect(error).toMatchObject({ title: 'HTTP 500', detail: '', type: undefined, instance: undefined, errors: {} })
    expect(error.message).toBe('HTTP 500')
    expect(new ServiceError(409, { title: 'Conflict' })).toMatchObject({ message: 'Conflict', detail: '', errors: {} })
    expect(error.errors).toEqual({})
    expect(new ServiceError(404).errors).toEqual({})
    expect(new ServiceError(400, { errors: null }).errors).toEqual({})
  })
})

describe('ServiceUnreachableError', () => {
  it('is a ServiceError with status 0 that says why', () => {
    const cause = new Error('ECONNREFUSED')
    const error = new ServiceUnreachableError('No answer within 500 ms.', { cause })
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({ name: 'ServiceUnreachableError', status: 0, title: 'Service unreachable', detail: 'No answer within 500 ms.', cause })
    expect(error.message).toBe('Service unreachable: No answer within 500 ms.')
  })
})
