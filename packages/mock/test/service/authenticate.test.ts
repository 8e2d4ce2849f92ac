// @vitest-environment node
// POST /v1/entity/identities/{identifier}/authenticate over real HTTP: the one confirmation of a
// signed challenge, consumed atomically; 401 for everything else, 423 for a locked identity.
import { decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import { newKey, problemOf, useService } from './helpers.js'

const otherApp = newKey('other')
const noConfirm = newKey('no-confirm')
const service = useService({}, [
  { key: otherApp.key, secret: otherApp.secret },
  { key: noConfirm.key, secret: noConfirm.secret, app: 'shared', permissions: ['identities:read'] },
])

const path = (identifier: string) => `/v1/entity/identities/${encodeURIComponent(identifier)}/authenticate`
const confirm = (identifier: string, body: unknown, key = service.key) => service.api('POST', path(identifier), { body, key })

/** A challenge signed by the identity's phone, and what the controller reads off the token. */
async function signedChallenge(identifier = 'ada@example.com') {
  const { id, pollingUrl } = await service.createChallenge()
  await service.provisionPhone(identifier)
  const claims = decodeJwt(await service.sign(id, identifier))
  return { challenge: claims.jti as string, otp: claims.otp as string, pollingUrl }
}

describe('authenticate', () => {
  it("200 with the Identity's fields at the top level and session null; the challenge is consumed: its status is 410 and a second use is 401", async () => {
    const { challenge, otp, pollingUrl } = await signedChallenge()
    const identity = await (await service.api('GET', '/v1/entity/identities/ada%40example.com')).json()
    const res = await confirm('ada@example.com', { challenge, otp })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ...identity, session: null })
    expect((await fetch(pollingUrl)).status).toBe(410)
    const again = await confirm('ada@example.com', { challenge, otp })
    expect(again.status).toBe(401)
    expect((await problemOf(again)).detail).toMatch(/used already/)
  })

  it('of two concurrent confirmations exactly one succeeds', async () => {
    const body = await signedChallenge()
    const statuses = (await Promise.all([confirm('ada@example.com', body), confirm('ada@example.com', body)])).map((res) => res.status)
    expect(statuses.sort()).toEqual([200, 401])
  })

  it('a wrong otp is 401 and does not consume: the right one still works', async () => {
    const { challenge, otp } = await signedChallenge()
    expect((await confirm('ada@example.com', { challenge, otp: otp + 'x' })).status).toBe(401)
    expect((await confirm('ada@example.com', { challenge, otp: 'a'.repeat(otp.length) })).status).toBe(401)
    expect((await confirm('ada@example.com', { challenge, otp })).status).toBe(200)
  })

  it('401 for an unknown, an unsigned and an expired challenge', async () => {
    const { challenge, otp } = await signedChallenge()
    const pending = await service.createChallenge()
    expect((await confirm('ada@example.com', { challenge: 'nope', otp })).status).toBe(401)
    expect((await confirm('ada@example.com', { challenge: pending.id, otp })).status).toBe(401)
    await service.knob(`challenges/${challenge}/expire`)
    expect((await confirm('ada@example.com', { challenge, otp })).status).toBe(401)
  })

  it("401 for another identity than the one that signed, and for the right one through another app's key", async () => {
    const body = await signedChallenge('ada@example.com')
    await service.provisionPhone('grace@example.com')
    expect((await confirm('grace@example.com', body)).status).toBe(401)
    expect((await confirm('ada@example.com', body, otherApp)).status).toBe(401)
    expect((await confirm('ada@example.com', body)).status).toBe(200)
  })

  it('refuses a deleted identity, even once it is enrolled again under the same identifier', async () => {
    const body = await signedChallenge()
    expect((await service.api('DELETE', '/v1/entity/identities/ada%40example.com')).status).toBe(204)
    const deleted = await confirm('ada@example.com', body)
    expect(deleted.status).toBe(401)
    expect((await problemOf(deleted)).detail).toMatch(/deleted/)
    await service.provisionPhone('ada@example.com')
    expect((await confirm('ada@example.com', body)).status).toBe(401)
  })

  it('401 once the device that signed was removed from the identity', async () => {
    const body = await signedChallenge()
    const [device] = (await (await service.api('GET', '/v1/entity/identities/ada%40example.com')).json()).tokens
    expect((await service.api('DELETE', `/v1/entity/tokens/${device.id}`)).status).toBe(204)
    const refused = await confirm('ada@example.com', body)
    expect(refused.status).toBe(401)
    expect((await problemOf(refused)).detail).toMatch(/device .* removed/)
  })

  it('follows a rename: the identity confirms under its new identifier', async () => {
    const body = await signedChallenge('ada@old.example')
    await service.api('POST', '/v1/entity/identities/ada%40old.example/rename', { body: { identifier: 'ada@new.example' } })
    expect((await confirm('ada@new.example', body)).status).toBe(200)
  })

  it('423 for a locked identity, without consuming; after unlocking it confirms', async () => {
    const body = await signedChallenge()
    await service.api('POST', '/v1/entity/identities/ada%40example.com', { body: { locked: true } })
    const locked = await confirm('ada@example.com', body)
    expect(locked.status).toBe(423)
    expect((await problemOf(locked)).title).toBe('Locked')
    await service.api('POST', '/v1/entity/identities/ada%40example.com', { body: { locked: false } })
    expect((await confirm('ada@example.com', body)).status).toBe(200)
  })

  it('400 for a missing challenge or otp, 415 for a form body, 403 for a key without the permission; none consumes', async () => {
    const { challenge, otp } = await signedChallenge()
    const missing = await confirm('ada@example.com', { challenge })
    expect(missing.status).toBe(400)
    expect(Object.keys((await problemOf(missing)).errors!)).toEqual(['otp'])
    expect((await confirm('ada@example.com', { challenge: 1, otp: true })).status).toBe(400)
    const form = await service.api('POST', path('ada@example.com'), {
      rawBody: `challenge=${challenge}&otp=${otp}`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(form.status).toBe(415)
    expect((await confirm('ada@example.com', { challenge, otp }, noConfirm)).status).toBe(403)
    expect((await confirm('ada@example.com', { challenge, otp })).status).toBe(200)
  })
})
