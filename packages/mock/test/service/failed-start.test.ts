// @vitest-environment node
// A start that fails leaves nothing behind: whoever passed it a store may close it, or start
// another service on it, without a half-started service still changing it.
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import type { ChallengeRecord } from '../../src/service/challenges/challenge-store.js'
import { startService } from '../../src/service/server.js'
import { memoryStore } from '../../src/store/open-store.js'
import { newKey } from './helpers.js'

let taken: Server

beforeEach(async () => {
  taken = createServer().listen(0, '127.0.0.1')
  await once(taken, 'listening')
})

afterEach(() => {
  vi.useRealTimers()
  taken.close()
})

it('on a port in use, the service it could not start changes nothing of the store it was given: no challenge expires in it afterwards', async () => {
  // Only the timers: the port's refusal comes through the network, not through a timer.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] })
  const store = memoryStore()
  const now = Date.now()
  const pending: ChallengeRecord = {
    id: 'c1',
    pollSecret: 'secret',
    app: 'test',
    key: 'key',
    authType: 'web',
    browser: { ip: null, userAgent: null },
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 1000).toISOString(),
    state: 'pending',
  }
  store.collection<ChallengeRecord>('challenges').put('c1', pending)

  const { port } = taken.address() as AddressInfo
  await expect(startService({ port, keys: [newKey('failed-start')], store })).rejects.toMatchObject({ code: 'EADDRINUSE' })
  vi.advanceTimersByTime(2 * 60_000)

  expect(store.collection<ChallengeRecord>('challenges').load()).toEqual([pending])
  await store.close()
})
