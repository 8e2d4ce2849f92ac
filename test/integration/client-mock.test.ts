// @vitest-environment node
// Every method of createClient against the mock service over HTTP, with the typed answers an
// integrator reads: the identities, the authentication and the session it starts, the app's
// configuration, devices and sessions.
import { describe, expect, it } from 'vitest'
import { createClient, verifyAuthToken, type Identity } from 'service-auth/server'
import { useMock } from './mock.js'

const service = useMock()
const client = () => createClient({ baseUrl: service.url, key: service.key.key, secret: service.key.secret })

/** The phone signs a challenge the embed created; what the controller reads off the token. */
async function signedClaims(identifier: string) {
  const { id, pollingUrl } = await service.createChallenge()
  await service.sign(id, identifier)
  const { token } = await (await fetch(pollingUrl)).json()
  return verifyAuthToken(token, { secret: service.key.secret })
}

describe('createClient against the mock', () => {
  it('check resolves with good credentials and rejects with 401 with a wrong secret', async () => {
    await expect(client().check()).resolves.toBeUndefined()
    const wrong = createClient({ baseUrl: service.url, key: service.key.key, secret: Buffer.alloc(32, 7).toString('base64') })
    await expect(wrong.check()).rejects.toMatchObject({ name: 'ServiceError', status: 401 })
  })

  it('identities: list is the array of Identity, paged; rename keeps the id', async () => {
    for (const identifier of ['ada@example.com', 'grace@example.com', 'edsger@example.com']) await client().enroll({ identifier })
    const all: Identity[] = await client().identities.list()
    expect(all.map((identity) => identity.identifier)).toEqual(['ada@example.com', 'grace@example.com', 'edsger@example.com'])
    expect((await client().identities.list({ page: 2, limit: 2 })).map((identity) => identity.identifier)).toEqual(['edsger@example.com'])
    const renamed = await client().identities.rename('ada@example.com', 'ada@new.example')
    expect(renamed).toMatchObject({ id: all[0]!.id, identifier: 'ada@new.example', sessions: [] })
  })

  it('with sessions on, a sign-in names its session in the token and authenticate returns it; sessions are listed, reported and logged out', async () => {
    expect(await client().configuration.update({ sessionsEnabled: true, websiteUrl: 'https://shop.example' })).toMatchObject({
      sessionsEnabled: true,
      supportSessions: true,
    })
    await service.provisionPhone('ada@example.com')
    const claims = await signedClaims('ada@example.com')
    expect(claims).toMatchObject({ identifier: 'ada@example.com', role: 'ROLE_USER', sessionId: expect.any(String) })

    const authentication = await client().authenticate(claims.identifier, { challenge: claims.challengeId, otp: claims.otp })
    expect(authentication).toMatchObject({ identifier: 'ada@example.com', role: 'ROLE_USER', session: { id: claims.sessionId } })
    expect(await client().sessions.list()).toEqual([authentication.session])
    expect(await client().sessions.get(claims.sessionId!)).toEqual(authentication.session)

    const expiresAt = new Date(Date.now() + 3_600_000).toISOString()
    const [reported] = await client().sessions.update([{ id: claims.sessionId!, clientSessionExpiresAt: expiresAt }])
    expect(Date.parse(reported!.expiresAt)).toBe(Date.parse(expiresAt))
    await client().sessions.logout(claims.sessionId!)
    await expect(client().sessions.get(claims.sessionId!)).rejects.toMatchObject({ status: 404 })
  })

  it('devices.delete removes a phone; its pending sign-in can no longer be confirmed', async () => {
    const deviceId = await service.provisionPhone('ada@example.com')
    const claims = await signedClaims('ada@example.com')
    expect(claims.sessionId).toBeUndefined()
    await client().devices.delete(deviceId)
    expect((await client().identities.get('ada@example.com')).tokens).toEqual([])
    await expect(client().authenticate(claims.identifier, { challenge: claims.challengeId, otp: claims.otp })).rejects.toMatchObject({ status: 401 })
    await expect(client().devices.delete(deviceId)).rejects.toMatchObject({ status: 404 })
  })
})
