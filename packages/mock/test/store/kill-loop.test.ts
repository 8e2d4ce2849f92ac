// @vitest-environment node
// A kill -9 at any moment loses at most the requests in flight. The service runs as
// `service-auth-mock --data DIR` in a child process (as built for the package, from the sources
// as they are: builtServiceCommand); clients enrol, set up phones and sign in
// against it, over and over, with signed requests (service-auth/server's client, as integrators
// sign them); and the service is killed with SIGKILL while they do, at a point drawn at random
// (after a random number of answered requests, with others in flight), then started again on the
// same directory the moment the killed one has exited: nothing is waited out, no lock or pid
// has to go stale first. Every restart must come up, and every answer a client got as a success
// must then still be true.
//
// New challenges are not on the list: they are written in batches, without holding their answer
// (see Durability in ../../src/store/store.ts), and a page whose challenge was lost asks for another.
//
// KILL_LOOP_ROUNDS sets the number of kills: 50 by default, which took 40 s on two cores shared
// at a load of 11 (80 s at a load of 20); fewer, to try something out.
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodeJwt } from 'jose'
import { afterAll, expect, it } from 'vitest'
import { createClient, type Client } from 'service-auth/server'
import { builtServiceCommand, startServiceProcess, type ServiceProcess } from './service-process.js'

const ROUNDS = Number(process.env.KILL_LOOP_ROUNDS || 50)
const CLIENTS = 4

const key = `kill-${randomBytes(4).toString('hex')}`
const secret = randomBytes(32).toString('base64')
let work: string
let service: ServiceProcess | undefined

afterAll(async () => {
  service?.child.kill('SIGKILL')
  await service?.exited
  if (work) await rm(work, { recursive: true, force: true })
})

/** What the clients were told, to be checked after every restart. */
const told = {
  /** identifier > the devices set up for it (an answered enroll alone adds the identity). */
  identities: new Map<string, Set<string>>(),
  enrollments: new Set<string>(),
  signed: new Set<string>(),
  authenticated: new Set<string>(),
  sessions: new Set<string>(),
}

it(`comes up after each of ${ROUNDS} kills with -9 at random moments, restarted at once, and loses no answered enrolment, phone, signature or sign-in`, {
  timeout: 300_000,
}, async () => {
  work = await mkdtemp(join(tmpdir(), 'service-auth-kill-'))
  const command = await builtServiceCommand(work)
  const dataDir = join(work, 'data')
  // No rate limits: the clients send far more than a person would.
  const config = join(work, 'config.json')
  await writeFile(config, JSON.stringify({ knobs: true, rateLimit: 0, browserRateLimit: 0 }))
  const env = { SERVICE_CONFIG: config, SERVICE_API_KEY: key, SERVICE_API_SECRET: secret }

  service = await startServiceProcess(['--data', dataDir], env, { command })
  await client(service).configuration.update({ sessionsEnabled: true })
  // While a killed service is down, the clients wait here for the next one.
  let up = Promise.resolve(service)
  let resume = (_running: ServiceProcess) => {}
  let answered = 0
  let killAt = 3 + Math.floor(Math.random() * 10)
  let stopped = false
  let failure: unknown

  /** Counts an answered request, and kills the service once the round's count is reached, with other requests in flight. */
  const success = (running: ServiceProcess) => {
    answered++
    if (stopped || answered < killAt || running !== service || running.child.killed) return
    up = new Promise((resolve) => (resume = resolve))
    running.child.kill('SIGKILL')
  }

  const worker = async (number: number) => {
    for (let n = 0; !stopped; n++) {
      const running = await up
      try {
        await signInFlow(running, `user-${number}-${n}@example.com`, () => success(running))
      } catch (error) {
        // Requests fail when the service is killed under them; for any other reason, the test does.
        if (running.child.killed) continue
        failure ??= error
        stopped = true
        running.child.kill('SIGKILL')
      }
    }
  }

  const workers = Array.from({ length: CLIENTS }, (_, number) => worker(number))
  for (let round = 1; round <= ROUNDS; round++) {
    await service.exited
    if (failure) break
    // Started again on the same directory as soon as the killed one is gone (its exit is the
    // kernel's word that it is), and checked before any client sends anything.
    service = await startServiceProcess(['--data', dataDir], env, { command })
    await expectEverythingTold(service)
    killAt = answered + 3 + Math.floor(Math.random() * 10)
    stopped = round === ROUNDS
    resume(service)
  }
  await Promise.all(workers)
  if (failure) throw failure
  await expectEverythingTold(service)
  expect(told.authenticated.size).toBeGreaterThan(0)
  expect(told.identities.size).toBeGreaterThan(ROUNDS)
})

const client = (running: ServiceProcess): Client => createClient({ baseUrl: running.url, key, secret })

async function knob(running: ServiceProcess, path: string, body?: unknown): Promise<Response> {
  const res = await fetch(`${running.url}/__knobs/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`)
  return res
}

/** Enrol, set the phone up, create a challenge, sign it, read the token, authenticate; records each success. */
async function signInFlow(running: ServiceProcess, identifier: string, answered: () => void): Promise<void> {
  const api = client(running)
  const { enrollment } = await api.enroll({ identifier })
  told.identities.set(identifier, new Set())
  told.enrollments.add(enrollment.id)
  answered()
  const { device } = (await (await knob(running, 'devices', { token: enrollment.id })).json()) as { device: { id: string } }
  told.identities.get(identifier)!.add(device.id)
  answered()
  const created = await fetch(`${running.url}/v1/entity/challenges`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ key }),
  })
  if (created.status !== 201) throw new Error(`create answered ${created.status}`)
  const { id, authTokenUrl } = (await created.json()) as { id: string; authTokenUrl: string }
  await knob(running, `challenges/${id}/sign`, { identifier, deviceId: device.id })
  told.signed.add(id)
  answered()
  const { token } = (await (await fetch(authTokenUrl)).json()) as { token: string }
  const { otp } = decodeJwt(token) as { otp: string }
  const { session } = await api.authenticate(identifier, { challenge: id, otp })
  told.authenticated.add(id)
  if (session) told.sessions.add(session.id)
  answered()
}

async function expectEverythingTold(running: ServiceProcess): Promise<void> {
  const api = client(running)
  expect((await api.configuration.get()).sessionsEnabled).toBe(true)
  await Promise.all(
    [...told.identities].map(async ([identifier, devices]) => {
      const identity = await api.identities.get(identifier)
      expect(
        identity.tokens.map((token) => token.id),
        identifier,
      ).toEqual(expect.arrayContaining([...devices]))
    }),
  )
  const enrollments = (await (await knob(running, 'enrollments')).json()) as { id: string }[]
  expect(enrollments.map((enrollment) => enrollment.id)).toEqual(expect.arrayContaining([...told.enrollments]))
  const challenges = new Map(((await (await knob(running, 'challenges')).json()) as { id: string; state: string }[]).map((c) => [c.id, c.state]))
  for (const id of told.signed) expect(['signed', 'consumed'], id).toContain(challenges.get(id))
  for (const id of told.authenticated) expect(challenges.get(id), id).toBe('consumed')
  const sessions = await api.sessions.list()
  expect(sessions.map((session) => session.id)).toEqual(expect.arrayContaining([...told.sessions]))
}
