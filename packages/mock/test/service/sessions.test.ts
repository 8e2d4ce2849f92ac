// @vitest-environment node
// Sign-in sessions at the mock: started by a confirmation when the app has them on, listed, read,
// kept up to date by the app's reports, ended by logout, expiry or the identity's deletion.
import { decodeJwt } from 'jose'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ErrorCode } from '@service-auth/http'
import { SESSION_LIFETIME_SECONDS, SessionStore } from '../../src/service/sessions/session-store.js'
import { describeBrowser } from '../../src/service/sessions/session-client.js'
import { memoryStore } from '../../src/store/open-store.js'
import { newKey, useService } from './helpers.js'

const otherApp = newKey('other')
const readOnly = newKey('read-only')
const service = useService({}, [
  { key: otherApp.key, secret: otherApp.secret },
  { key: readOnly.key, secret: readOnly.secret, app: 'shared', permissions: ['identities:read'] },
])

const SESSIONS = '/v1/entity/sessions'
const sessionsOn = (on = true) => service.api('PATCH', '/v1/entity/configuration', { body: { sessionsEnabled: on } })

/** A whole sign-in of the identity: the authenticate answer. */
async function signIn(identifier = 'ada@example.com') {
  const { id } = await service.createChallenge()
  const { jti, otp } = decodeJwt(await service.sign(id, identifier))
  const res = await service.api('POST', `/v1/entity/identities/${encodeURIComponent(identifier)}/authenticate`, { body: { challenge: jti, otp } })
  expect(res.status).toBe(200)
  return res.json()
}

const list = async (key = service.key) => (await (await service.api('GET', SESSIONS, { key })).json()).items
const report = (body: unknown) => service.api('PATCH', SESSIONS, { body })

describe('sessions', () => {
  it('none while sessions are off; turning them off later keeps the ones started', async () => {
    await service.provisionPhone('ada@example.com')
    expect((await signIn()).session).toBeNull()
    await sessionsOn()
    const { session } = await signIn()
    await sessionsOn(false)
    expect((await signIn()).session).toBeNull()
    expect(await list()).toEqual([session])
  })

  it("each app sees its own: another app's session is 404, and a key without the permission gets 403", async () => {
    await sessionsOn()
    await service.provisionPhone('ada@example.com')
    const { session } = await signIn()
    expect(await list(otherApp)).toEqual([])
    expect((await service.api('GET', `${SESSIONS}/${session.id}`, { key: otherApp })).status).toBe(404)
    expect((await service.api('DELETE', `${SESSIONS}/${session.id}`, { key: otherApp })).status).toBe(404)
    expect((await service.api('GET', SESSIONS, { key: readOnly })).status).toBe(403)
    expect(await list()).toEqual([session])
  })

  it('a reported expiry in the past ends the session; Unix seconds are taken too', async () => {
    await sessionsOn()
    await service.provisionPhone('ada@example.com')
    const first = (await signIn()).session
    const second = (await signIn()).session
    const res = await report([
      { id: first.id, clientSessionExpiresAt: Math.floor(Date.now() / 1000) - 60 },
      { id: second.id, clientSessionUpdatedAt: 1_800_000_000, clientSessionExpiresAt: null },
    ])
    expect(res.status).toBe(200)
    expect((await res.json()).items).toEqual([{ ...second, updatedAt: '2027-01-15T08:00:00.000+00:00' }])
    expect((await service.api('GET', `${SESSIONS}/${first.id}`)).status).toBe(404)
  })

  it('only times an answer can give back: no 30 February, no year past 9999, no milliseconds as seconds', async () => {
    await sessionsOn()
    await service.provisionPhone('ada@example.com')
    const { session } = await signIn()
    for (const time of ['2025-02-30T00:00Z', '2025-01-01T24:00:00Z', 300_000_000_000, Date.now(), -1, '+011476-08-15T05:20:00.000+00:00']) {
      const res = await report([{ id: session.id, clientSessionExpiresAt: time }])
      expect(res.status, String(time)).toBe(400)
    }
    expect((await report([{ id: session.id, clientSessionExpiresAt: 253_402_300_799 }])).status).toBe(200)
    const [kept] = await list()
    expect(kept.expiresAt).toBe('9999-12-31T23:59:59.000+00:00')
    expect((await report([{ id: session.id, clientSessionExpiresAt: kept.expiresAt }])).status).toBe(200)
  })

  it('400 names each bad entry by its place in the list, and changes nothing', async () => {
    await sessionsOn()
    await service.provisionPhone('ada@example.com')
    const { session } = await signIn()
    const res = await report([{ id: session.id, clientSessionExpiresAt: '2000-01-01T00:00:00Z' }, { clientSessionUpdatedAt: 'soon' }, 7])
    expect(res.status).toBe(400)
    const { errors } = await res.json()
    expect(Object.fromEntries(Object.entries(errors).map(([field, list]) => [field, (list as { code: string }[]).map((e) => e.code)]))).toEqual({
      '[1][id]': [ErrorCode.isBlank],
      '[1][clientSessionUpdatedAt]': [ErrorCode.invalidDateTime],
      '[2]': [ErrorCode.invalidType],
    })
    expect(await list()).toEqual([session])
  })

  it('deleting the identity ends its sessions; removing the device keeps them', async () => {
    await sessionsOn()
    const deviceId = await service.provisionPhone('ada@example.com')
    await service.provisionPhone('grace@example.com')
    const ada = (await signIn('ada@example.com')).session
    const grace = (await signIn('grace@example.com')).session
    expect((await service.api('DELETE', `/v1/entity/tokens/${deviceId}`)).status).toBe(204)
    expect(await list()).toEqual([ada, grace])
    expect((await service.api('DELETE', '/v1/entity/identities/ada%40example.com')).status).toBe(204)
    expect(await list()).toEqual([grace])
  })
})

describe('the session store', () => {
  afterEach(() => vi.useRealTimers())

  it('forgets a session once its day is over', () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const store = new SessionStore(memoryStore().collection('sessions'))
    const device = { id: 'd', createdAt: new Date(), model: 'Pixel', label: '' }
    store.start({ id: 's', app: 'a', identityId: 'i', device, client: describeBrowser({ ip: null, userAgent: null }) })
    vi.advanceTimersByTime(SESSION_LIFETIME_SECONDS * 1000 - 1)
    expect(store.get('a', 's')?.id).toBe('s')
    vi.advanceTimersByTime(1)
    expect(store.get('a', 's')).toBeUndefined()
    expect(store.ofIdentity('i')).toEqual([])
  })
})

describe('Session.client', () => {
  it.each([
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36', 'Chrome on Linux'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0', 'Edge on Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15', 'Safari on macOS'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    ['Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0', 'Firefox on Android'],
    ['curl/8.5.0', null],
  ])('%s is %s', (userAgent, label) => {
    expect(describeBrowser({ ip: '203.0.113.7', userAgent }).label).toBe(label)
  })
})
