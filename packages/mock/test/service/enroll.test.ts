// @vitest-environment node
// POST /v1/entity/identities/enroll over real HTTP: 201 and 200, the Enrollment with a real QR
// code of the token, nickname, role and timeout, the outbox e-mail, and every kind of bad body.
import { describe, expect, it } from 'vitest'
import { readQrPng } from '../../src/testing/qr-png.js'
import { ErrorCode, BODY_LIMIT } from '@service-auth/http'
import { DEFAULT_ENROLLMENT_TIMEOUT_SECONDS } from '../../src/service/enrollments/enrollment-store.js'
import { problemOf, useService } from './helpers.js'

const service = useService()
const ENROLL = '/v1/entity/identities/enroll'
const enroll = (body: unknown) => service.api('POST', ENROLL, { body })
const lifetime = (enrollment: { createdAt: string; expiresAt: string }) => (Date.parse(enrollment.expiresAt) - Date.parse(enrollment.createdAt)) / 1000
const outbox = async () => (await service.knob('outbox', undefined, 'GET')).json()

/** Nothing was stored: no identity, no enrollment, no e-mail. */
async function expectNothingStored() {
  expect(await (await service.api('GET', '/v1/entity/identities')).json()).toEqual([])
  expect(await (await service.knob('enrollments', undefined, 'GET')).json()).toEqual([])
  expect(await outbox()).toEqual([])
}

describe('enroll', () => {
  it('201 for a new identity with the Enrollment: id, times, a PNG QR code of the token, and the identity', async () => {
    const res = await enroll({ identifier: 'ada@example.com' })
    expect(res.status).toBe(201)
    const enrollment = await res.json()
    expect(enrollment).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      base64ImageData: expect.any(String),
      identity: expect.objectContaining({ identifier: 'ada@example.com', role: 'ROLE_USER', locked: false, tokens: [] }),
    })
    const png = Buffer.from(enrollment.base64ImageData, 'base64')
    expect(png.subarray(1, 4).toString()).toBe('PNG')
    expect(readQrPng(png)).toBe(`serviceauth:enroll:${enrollment.id}`)
  })

  it('200 for a known identity, with a new token; the identity keeps its id', async () => {
    const first = await (await enroll({ identifier: 'ada@example.com' })).json()
    const again = await enroll({ identifier: 'ada@example.com' })
    expect(again.status).toBe(200)
    const second = await again.json()
    expect(second.id).not.toBe(first.id)
    expect(second.identity.id).toBe(first.identity.id)
  })

  it('honours nickname and role, for a new identity and as an update of a known one', async () => {
    const created = await (await enroll({ identifier: 'u-1', nickname: 'Ada', role: 'ROLE_ADMIN' })).json()
    expect(created.identity).toMatchObject({ nickname: 'Ada', label: 'Ada', role: 'ROLE_ADMIN' })
    const updated = await (await enroll({ identifier: 'u-1', nickname: 'Ada L.' })).json()
    expect(updated.identity).toMatchObject({ nickname: 'Ada L.', role: 'ROLE_ADMIN' })
  })

  it(`the token lives ${DEFAULT_ENROLLMENT_TIMEOUT_SECONDS} s by default, timeout seconds when given`, async () => {
    expect(lifetime(await (await enroll({ identifier: 'a' })).json())).toBe(DEFAULT_ENROLLMENT_TIMEOUT_SECONDS)
    expect(lifetime(await (await enroll({ identifier: 'b', timeout: 90 })).json())).toBe(90)
    await service.knob('config', { enrollmentTimeoutSeconds: 600 })
    expect(lifetime(await (await enroll({ identifier: 'c' })).json())).toBe(600)
  })
})

describe('the enrollment e-mail', () => {
  it('sendEmail writes it to the outbox, to the identifier when that is an address, in English, with the QR code', async () => {
    const enrollment = await (await enroll({ identifier: 'ada@example.com', nickname: 'Ada', sendEmail: true })).json()
    const [mail, ...rest] = await outbox()
    expect(rest).toEqual([])
    expect(mail).toMatchObject({
      to: 'ada@example.com',
      locale: 'en',
      requestedLocale: null,
      subject: 'Set up sign-in with your phone',
      enrollmentId: enrollment.id,
      identifier: 'ada@example.com',
    })
    expect(mail.text).toContain('Hello Ada')
    expect(mail.text).toContain(`serviceauth:enroll:${enrollment.id}`)
    expect(readQrPng(Buffer.from(mail.attachments[0].content, 'base64'))).toBe(`serviceauth:enroll:${enrollment.id}`)
  })

  it('sendEmailTo and sendEmailLocale choose the address and the language; unknown languages are English', async () => {
    await enroll({ identifier: 'u-1', sendEmail: true, sendEmailTo: 'ops@example.com', sendEmailLocale: 'de-CH' })
    await enroll({ identifier: 'u-2', sendEmail: true, sendEmailTo: 'ops@example.com', sendEmailLocale: 'sv' })
    const [german, swedish] = await outbox()
    expect(german).toMatchObject({ to: 'ops@example.com', requestedLocale: 'de-CH', locale: 'de', subject: 'Anmeldung mit dem Telefon einrichten' })
    expect(swedish).toMatchObject({ requestedLocale: 'sv', locale: 'en' })
  })

  it('no sendEmail, no e-mail, whatever sendEmailTo says; the outbox knob empties it', async () => {
    await enroll({ identifier: 'ada@example.com', sendEmailTo: 'ops@example.com' })
    await enroll({ identifier: 'grace@example.com', sendEmail: false })
    expect(await outbox()).toEqual([])
    await enroll({ identifier: 'ada@example.com', sendEmail: true })
    expect((await service.knob('outbox', undefined, 'DELETE')).status).toBe(204)
    expect(await outbox()).toEqual([])
  })
})

describe('bad enrollments store nothing', () => {
  const cases: [string, unknown, Record<string, string>][] = [
    ['no identifier', {}, { identifier: ErrorCode.isBlank }],
    ['a blank identifier', { identifier: '' }, { identifier: ErrorCode.isBlank }],
    ['a number as identifier', { identifier: 42 }, { identifier: ErrorCode.invalidType }],
    ['a timeout of 0', { identifier: 'a', timeout: 0 }, { timeout: ErrorCode.notInRange }],
    ['a timeout over 30 days', { identifier: 'a', timeout: 2_592_001 }, { timeout: ErrorCode.notInRange }],
    ['a fractional timeout', { identifier: 'a', timeout: 1.5 }, { timeout: ErrorCode.invalidType }],
    ['a timeout as text', { identifier: 'a', timeout: '60' }, { timeout: ErrorCode.invalidType }],
    ['a role without ROLE_', { identifier: 'a', role: 'admin' }, { role: ErrorCode.patternMismatch }],
    ['sendEmail as text', { identifier: 'a@example.com', sendEmail: 'yes' }, { sendEmail: ErrorCode.invalidType }],
    ['sendEmailTo that is no address', { identifier: 'a', sendEmail: true, sendEmailTo: 'ada' }, { sendEmailTo: ErrorCode.invalidEmail }],
    ['sendEmail with nowhere to send', { identifier: 'u-1', sendEmail: true }, { sendEmailTo: ErrorCode.isBlank }],
    [
      'sendEmailLocale that is no locale',
      { identifier: 'a@example.com', sendEmail: true, sendEmailLocale: 'english!' },
      { sendEmailLocale: ErrorCode.invalidLocale },
    ],
    ['a nickname as a list', { identifier: 'a', nickname: ['Ada'] }, { nickname: ErrorCode.invalidType }],
  ]

  it.each(cases)("%s: 400 with the field's constant code", async (_, body, expected) => {
    const res = await enroll(body)
    expect(res.status).toBe(400)
    const { errors } = await problemOf(res)
    expect(Object.fromEntries(Object.entries(errors!).map(([field, [first]]) => [field, first!.code]))).toEqual(expected)
    await expectNothingStored()
  })

  it('a known identity is not updated by a bad enrollment', async () => {
    await enroll({ identifier: 'ada', nickname: 'Ada' })
    expect((await enroll({ identifier: 'ada', nickname: 'Eve', timeout: -1 })).status).toBe(400)
    expect((await (await service.api('GET', '/v1/entity/identities/ada')).json()).nickname).toBe('Ada')
  })

  it('malformed JSON and a JSON array: 400; another content type: 415; no content type: 415', async () => {
    const json = { 'Content-Type': 'application/json' }
    expect((await service.api('POST', ENROLL, { rawBody: '{"identifier":', headers: json })).status).toBe(400)
    expect((await service.api('POST', ENROLL, { rawBody: '["ada"]', headers: json })).status).toBe(400)
    expect((await service.api('POST', ENROLL, { rawBody: '{"identifier":"ada"}', headers: { 'Content-Type': 'text/plain' } })).status).toBe(415)
    expect((await service.api('POST', ENROLL, { rawBody: '{"identifier":"ada"}' })).status).toBe(415)
    await expectNothingStored()
  })

  it(`a body over ${BODY_LIMIT} bytes: 413`, async () => {
    const rawBody = JSON.stringify({ identifier: 'ada', nickname: 'x'.repeat(BODY_LIMIT) })
    const res = await service.api('POST', ENROLL, { rawBody, headers: { 'Content-Type': 'application/json' } })
    expect(res.status).toBe(413)
    expect((await problemOf(res)).title).toBe('Payload Too Large')
    await expectNothingStored()
  })
})
