// @vitest-environment node
// `Service:` is printed only once everything the command was asked to create is on disk: the
// credentials a new data directory makes up, and the test identity with its phone. A process
// killed with -9 the moment it prints the line (kill-at-banner.ts, which kills itself from
// within the print) leaves all of it behind, as a restart reading the directory (--export) shows.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runServiceCommand, serviceEnv } from './service-process.js'

const KILL_AT_BANNER = fileURLToPath(new URL('./kill-at-banner.ts', import.meta.url))

let work: string
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'service-auth-start-'))
})
afterAll(() => rm(work, { recursive: true, force: true }))

it('prints Service: only once the credentials, the test identity and its phone are on disk: a kill -9 as it prints loses none', {
  timeout: 60_000,
}, async () => {
  // Without the wait, every round lost the identity; a few rounds, so that a lucky one proves nothing.
  for (let round = 1; round <= 3; round++) {
    const dir = join(work, `data-${round}`)
    const child = spawn(process.execPath, ['--import', 'tsx', KILL_AT_BANNER, '--data', dir, '--test-identity', 'ada@example.com'], {
      env: serviceEnv(),
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let errors = ''
    child.stderr!.on('data', (chunk) => (errors += chunk))
    const [code, signal] = await once(child, 'close')
    expect({ code, signal, errors }).toEqual({ code: null, signal: 'SIGKILL', errors: '' })

    const file = join(work, `state-${round}.json`)
    expect((await runServiceCommand(['--data', dir, '--export', file])).code).toBe(0)
    const { collections } = JSON.parse(await readFile(file, 'utf8')) as { collections: Record<string, Record<string, Record<string, unknown>>> }
    expect(Object.values(collections.credentials ?? {})).toEqual([{ apiKey: expect.any(String), apiSecret: expect.any(String) }])
    expect(Object.values(collections.identities ?? {})).toEqual([
      expect.objectContaining({ app: 'test-keys', identifier: 'ada@example.com', devices: [expect.objectContaining({ model: 'Test phone' })] }),
    ])
  }
})
