// @vitest-environment node
// Nothing is lost on a restart: the service and the demo, started again on the same data
// directory, answer as they did before, and what was under way carries on.
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodeJwt } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { APP_COLLECTIONS } from '../app/collections.js'
import { startDemo } from '../harness.js'
import { KnobClient } from '@service-auth/mock/knobs'
import { exportState, generateCredentials, openDataStore, openState, startService, type ServiceHandle, type Store } from '@service-auth/mock/service'
import { createClient, ServiceError } from 'service-auth/server'
import { callController, enrolWithPhone, sessionCookie, signedToken } from './helpers.js'

let work: string
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'service-auth-restart-'))
})
afterAll(() => rm(work, { recursive: true, force: true }))
afterEach(() => vi.useRealTimers())

describe('the service, started again on its data directory', () => {
  const { apiKey, apiSecret } = generateCredentials()
  const key = { key: apiKey, secret: apiSecret }
  const dir = () => join(work, 'service')
  let running: { service: ServiceHandle; store: Store } | undefined

  async function start() {
    const store = await openDataStore(dir())
    // A short hold: the polls below want an answer, not a second's wait.
    const service = await startService({ port: 0, keys: [{ key: key.key, secret: key.secret }], knobs: true, holdMs: 50, store })
    running = { service, store }
    return { url: service.url, client: createClient({ baseUrl: service.url, key: key.key, secret: key.secret }) }
  }
  async function stop() {
    await running?.service.close()
    await running?.store.close()
    running = undefined
  }
  afterAll(stop)

  const createChallenge = async (url: string) =>
    (await (
      await fetch(`${url}/v1/entity/challenges`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ key: key.key }) })
    ).json()) as {
      id: string
      pollingUrl: string
      expiresAt: string
    }
  /** The poll as the page makes it, on the pollingUrl of the creation answer, against the service's current address. */
  const poll = (url: string, pollingUrl: string) => fetch(url + new URL(pollingUrl).pathname + new URL(pollingUrl).search)

  // Two starts and some thirty requests: more than the default 5 s on a busy machine.
  it('keeps identities, phones, pending enrolments, sessions, configuration, the outbox and challenges', { timeout: 30_000 }, async () => {
    let { url, client } = await start()
    await client.configuration.update({ sessionsEnabled: true, websiteUrl: 'https://shop.example' })
    const { enrollment } = await client.enroll({ identifier: 'ada@example.com', sendEmail: true })
    const { device } = await new KnobClient(url).provisionDevice({ token: enrollment.id, model: 'Pixel 9' })
    const pending = (await client.enroll({ identifier: 'grace@example.com', nickname: 'Grace' })).enrollment
    // Ada signs in: a consumed challenge and a session.
    const used = await createChallenge(url)
    const { token } = await new KnobClient(url).signChallenge(used.id, { identifier: 'ada@example.com' })
    const { otp } = decodeJwt(token) as { otp: string }
    const { session } = await client.authenticate('ada@example.com', { challenge: used.id, otp })
    // A login page is showing a code, and another page's shorter-lived code runs out while the service is down.
    const open = await createChallenge(url)
    await new KnobClient(url).configure({ challengeTtlMs: 60_000 })
    const lapsing = await createChallenge(url)
    await running!.store.flushed()
    await stop()

    // Started again a minute later, by the clock the stores read.
    vi.useFakeTimers({ toFake: ['Date'], now: new Date(lapsing.expiresAt).getTime() + 1000 })
    ;({ url, client } = await start())
    vi.useRealTimers()

    const ada = await client.identities.get('ada@example.com')
    expect(ada.tokens).toEqual([expect.objectContaining({ id: device.id, model: 'Pixel 9' })])
    expect(ada.sessions.map((live) => live.id)).toEqual([session!.id])
    expect((await client.sessions.list()).map((live) => live.id)).toEqual([session!.id])
    expect(await client.configuration.get()).toEqual(expect.objectContaining({ sessionsEnabled: true, websiteUrl: 'https://shop.example' }))
    expect((await client.identities.get('grace@example.com')).nickname).toBe('Grace')
    const outbox = await new KnobClient(url).outbox()
    expect(outbox).toEqual([expect.objectContaining({ to: 'ada@example.com', enrollmentId: enrollment.id })])
    // The e-mailed code of yesterday still sets a phone up.
    await expect(new KnobClient(url).provisionDevice({ token: pending.id })).resolves.toMatchObject({ device: { model: 'Mock phone' } })
    // A used challenge stays used.
    const again = await client.authenticate('ada@example.com', { challenge: used.id, otp }).catch((error: ServiceError) => error)
    expect(again).toBeInstanceOf(ServiceError)
    expect((again as ServiceError).status).toBe(401)
    // The open page polls on, and its code still signs it in.
    expect((await poll(url, open.pollingUrl)).status).toBe(204)
    await new KnobClient(url).signChallenge(open.id, { identifier: 'grace@example.com' })
    const polled = (await (await poll(url, open.pollingUrl)).json()) as { token: string }
    expect(decodeJwt(polled.token)).toEqual(expect.objectContaining({ jti: open.id, sub: 'grace@example.com' }))
    await client.authenticate('grace@example.com', { challenge: open.id, otp: (decodeJwt(polled.token) as { otp: string }).otp })
    // The code that ran out meanwhile is expired, as it would have been without the restart.
    expect((await poll(url, lapsing.pollingUrl)).status).toBe(410)
  })
})

describe('the demo, started again on its data directory', () => {
  it('answers to the same key, knows its users, and keeps them signed in', { timeout: 30_000 }, async () => {
    const dir = join(work, 'demo')
    let store = await openDataStore(dir, { collections: APP_COLLECTIONS })
    let demo = await startDemo({ store })
    const first = { apiKey: demo.apiKey, apiSecret: demo.apiSecret }
    const deviceId = await enrolWithPhone(demo, 'ada@example.com')
    const signedIn = await callController(demo, await signedToken(demo, 'ada@example.com', deviceId))
    expect(signedIn.status).toBe(200)
    const cookie = sessionCookie(signedIn)
    await demo.close()
    await store.close()

    store = await openDataStore(dir, { collections: APP_COLLECTIONS })
    demo = await startDemo({ store })
    try {
      expect({ apiKey: demo.apiKey, apiSecret: demo.apiSecret }).toEqual(first)
      expect(await (await fetch(demo.appUrl + '/welcome', { headers: { Cookie: cookie } })).text()).toContain('Welcome, ada@example.com')
      // Her phone, set up before the restart, signs her in after it: she is still a user here.
      expect((await callController(demo, await signedToken(demo, 'ada@example.com', deviceId))).status).toBe(200)
    } finally {
      await demo.close()
      await store.close()
    }
  })

  it("exports its users and sessions with the service's state, as `npm start -- --export` does, and a demo seeded from the file keeps them signed in", {
    timeout: 30_000,
  }, async () => {
    const dir = join(work, 'exported')
    const store = await openDataStore(dir, { collections: APP_COLLECTIONS })
    const demo = await startDemo({ store })
    const deviceId = await enrolWithPhone(demo, 'ada@example.com')
    const cookie = sessionCookie(await callController(demo, await signedToken(demo, 'ada@example.com', deviceId)))
    await demo.close()
    await store.close()

    const file = join(work, 'exported.json')
    await exportState({ dataDir: dir, exportTo: file }, { collections: APP_COLLECTIONS })
    const { collections } = JSON.parse(await readFile(file, 'utf8')) as { collections: Record<string, object> }
    expect(Object.keys(collections)).toEqual(expect.arrayContaining(['credentials', 'identities', 'app-users', 'app-sessions']))

    const seeded = await openState({ dataDir: join(work, 'seeded'), importFrom: file }, { collections: APP_COLLECTIONS })
    const again = await startDemo({ store: seeded })
    try {
      expect(await (await fetch(again.appUrl + '/welcome', { headers: { Cookie: cookie } })).text()).toContain('Welcome, ada@example.com')
    } finally {
      await again.close()
      await seeded.close()
    }
  })
})
