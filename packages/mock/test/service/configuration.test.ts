// @vitest-environment node
// POST /v1/entity/check and GET/PATCH /v1/entity/configuration, the endpoints the official clients
// call although the spec does not show them: who may call them, what changes, what is refused.
import { describe, expect, it } from 'vitest'
import { ErrorCode } from '@service-auth/http'
import { newKey, problemOf, useService } from './helpers.js'

const otherApp = newKey('other')
const readOnly = newKey('read-only')
const service = useService({}, [
  { key: otherApp.key, secret: otherApp.secret },
  { key: readOnly.key, secret: readOnly.secret, permissions: ['identities:read'] },
])

const CONFIGURATION = '/v1/entity/configuration'
const read = async (key = service.key) => (await service.api('GET', CONFIGURATION, { key })).json()
const change = (body: unknown, key = service.key) => service.api('PATCH', CONFIGURATION, { body, key })

describe('check', () => {
  it('any valid key gets pong, with or without a body; another message is 400', async () => {
    for (const request of [{ body: { message: 'ping' }, key: readOnly }, {}]) {
      const res = await service.api('POST', '/v1/entity/check', request)
      expect(await res.json()).toEqual({ message: 'pong' })
    }
    const res = await service.api('POST', '/v1/entity/check', { body: { message: 'hello' } })
    expect((await problemOf(res)).errors).toEqual({ message: [{ code: ErrorCode.notAValidChoice, message: expect.any(String) }] })
  })
})

describe('configuration', () => {
  it('per app; any key reads its own, changing it needs the configuration permission', async () => {
    expect((await change({ websiteUrl: 'https://shop.example' })).status).toBe(200)
    expect((await read()).websiteUrl).toBe('https://shop.example')
    expect((await read(otherApp)).websiteUrl).toBeNull()
    expect((await read(readOnly)).websiteUrl).toBeNull()
    expect((await change({ websiteUrl: 'https://evil.example' }, readOnly)).status).toBe(403)
  })

  it('an empty body changes nothing; null and "" clear a URL; either name switches sessions', async () => {
    await change({ websiteUrl: 'https://shop.example', authenticationUrl: 'https://shop.example/auth' })
    const empty = await service.api('PATCH', CONFIGURATION, { rawBody: '', headers: { 'Content-Type': 'application/json; charset=utf-8' } })
    expect(await empty.json()).toMatchObject({ websiteUrl: 'https://shop.example', authenticationUrl: 'https://shop.example/auth' })
    expect(await (await change({ websiteUrl: null, authenticationUrl: '', supportSessions: true })).json()).toEqual({
      websiteUrl: null,
      authenticationUrl: null,
      registrationUrl: null,
      sessionsEnabled: true,
      supportSessions: true,
    })
    expect((await (await change({ sessionsEnabled: false })).json()).supportSessions).toBe(false)
  })
})
