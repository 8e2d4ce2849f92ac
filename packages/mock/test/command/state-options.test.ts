// @vitest-environment node
// Where `npm start` and `npm run service` keep their state, as their command line says, and the
// JSON a data directory exports for CI fixtures and a fresh service imports.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService } from '../../src/service/server.js'
import { openDataStore } from '../../src/store/open-store.js'
import { rememberedCredentials } from '../../src/store/remembered-credentials.js'
import { DEFAULT_DATA_DIR, openState, readStateOptions } from '../../src/command/state-options.js'
import { createClient } from 'service-auth/server'
import { runServiceCommand, startServiceProcess } from '../store/service-process.js'

describe('the state options', () => {
  it('keep the state in .service-auth under the working directory unless told otherwise', () => {
    expect(readStateOptions([], {})).toEqual({ dataDir: DEFAULT_DATA_DIR })
    expect(DEFAULT_DATA_DIR).toBe('.service-auth')
    expect(readStateOptions([], { SERVICE_DATA: '/var/mock' })).toEqual({ dataDir: '/var/mock' })
    expect(readStateOptions(['--data', 'here'], { SERVICE_DATA: '/var/mock' })).toEqual({ dataDir: 'here' })
    expect(readStateOptions(['--in-memory'], { SERVICE_DATA: '/var/mock' })).toEqual({ dataDir: undefined })
    expect(readStateOptions(['--in-memory', '--import', 'fixture.json'], {})).toEqual({ dataDir: undefined, importFrom: 'fixture.json' })
    expect(readStateOptions(['--data=d', '--export', 'out.json'], {})).toEqual({ dataDir: 'd', exportTo: 'out.json' })
  })

  it.each([
    [['--data', 'd', '--in-memory'], '--data and --in-memory contradict each other: choose one.'],
    [['--export', 'a.json', '--import', 'b.json'], '--export and --import are separate runs'],
    [['--in-memory', '--export', 'a.json'], "--export writes a data directory's state, and --in-memory has none"],
    [['--data', ''], '--data needs a path.'],
    [['--port', '1'], "Unknown option '--port'"],
    [['stray'], 'Options: --data DIR (or SERVICE_DATA), --in-memory, --export FILE, --import FILE.'],
  ])('refuse %j with a message', (args, message) => {
    expect(() => readStateOptions(args, {})).toThrow(message)
  })
})

describe('--export and --import', () => {
  let work: string
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'service-auth-export-'))
  })
  afterAll(() => rm(work, { recursive: true, force: true }))

  it('a data directory exports to JSON, even while its service runs, and the file seeds a fresh service with the same key, identities and phones', {
    timeout: 60_000,
  }, async () => {
    // The state of a service whose key was made up at its first start, as `npm start` makes one.
    const source = join(work, 'source')
    const store = await openDataStore(source)
    const { apiKey, apiSecret } = rememberedCredentials(store)
    const service = await startService({ port: 0, keys: [{ key: apiKey, secret: apiSecret }], knobs: true, store })
    const { enrollment } = await createClient({ baseUrl: service.url, key: apiKey, secret: apiSecret }).enroll({ identifier: 'ci@example.com' })
    const provisioned = await fetch(`${service.url}/__knobs/devices`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: enrollment.id }),
    })
    const { device } = (await provisioned.json()) as { device: { id: string } }

    // Exported while the service still runs on the directory, as a CI job would take a fixture.
    const file = join(work, 'fixture.json')
    const exported = await runServiceCommand(['--data', source, '--export', file])
    await service.close()
    await store.close()
    expect(exported).toEqual({ code: 0, signal: null, output: `Exported 3 records from ${source} to ${file}.\n` })
    // It holds the API secret: its owner's only.
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    const state = JSON.parse(await readFile(file, 'utf8'))
    expect(state).toEqual(expect.objectContaining({ format: 'service-auth-state', schema: 1 }))
    expect(Object.keys(state.collections).sort()).toEqual(['credentials', 'enrollments', 'identities'])

    const seeded = await startServiceProcess(['--in-memory', '--import', file])
    try {
      // The key the fixture's state kept, not a new one: the page and controller set up with it work.
      expect(seeded.output()).toContain(`API key (kept with the state): ${apiKey}`)
      expect(seeded.output()).toContain('State: in memory')
      const identity = await createClient({ baseUrl: seeded.url, key: apiKey, secret: apiSecret }).identities.get('ci@example.com')
      expect(identity.tokens.map((token) => token.id)).toEqual([device.id])
    } finally {
      seeded.child.kill('SIGTERM')
      await seeded.exited
    }

    // Only a fresh service is seeded: the source holds state already, and the line says where to import instead.
    const refused = await runServiceCommand(['--data', source, '--import', file])
    expect(refused).toEqual({
      code: 1,
      signal: null,
      output: `${source} holds state already; --import seeds a fresh service only: name a new directory with --data, or --in-memory.\n`,
    })
  })

  it('an --export of a directory that holds no state (the default .service-auth of another working directory, say) exits 1 naming --data', {
    timeout: 30_000,
  }, async () => {
    const missing = join(work, 'never-started')
    expect(await runServiceCommand(['--data', missing, '--export', join(work, 'nothing.json')])).toEqual({
      code: 1,
      signal: null,
      output: `${missing} holds no service-auth state: name the directory the service keeps its state in with --data.\n`,
    })
  })

  it('an --export file that cannot be written exits 1 with one line naming --export and the file', { timeout: 30_000 }, async () => {
    const source = join(work, 'unexported')
    await (await openDataStore(source)).close()
    const file = join(work, 'no-such-folder', 'fixture.json')
    expect(await runServiceCommand(['--data', source, '--export', file])).toEqual({
      code: 1,
      signal: null,
      output: `--export ${file} cannot be written: ENOENT: no such file or directory, open '${file}'\n`,
    })
  })

  it("a directory an app shares with the mock exports the app's collections too, which only a program that keeps them imports", {
    timeout: 60_000,
  }, async () => {
    // As the demo keeps its users beside the service's state; the mock's command knows nothing of them.
    const shop = { collections: ['shop-orders'] }
    const source = join(work, 'shared')
    const store = await openDataStore(source, shop)
    rememberedCredentials(store)
    store.collection('shop-orders').put('o1', { customer: 'ada@example.com' })
    await store.close()

    const file = join(work, 'shared.json')
    expect(await runServiceCommand(['--data', source, '--export', file])).toEqual({
      code: 0,
      signal: null,
      output: `Exported 2 records from ${source} to ${file}.\n`,
    })
    const state = JSON.parse(await readFile(file, 'utf8'))
    expect(state.collections['shop-orders']).toEqual({ o1: { customer: 'ada@example.com' } })

    const refused = await runServiceCommand(['--in-memory', '--import', file])
    expect(refused.code).toBe(1)
    expect(refused.output).toContain(`${file} names a collection this store does not keep: shop-orders`)
    const seeded = await openState({ dataDir: join(work, 'shop-seeded'), importFrom: file }, shop)
    try {
      expect(seeded.collection('shop-orders').load()).toEqual([{ customer: 'ada@example.com' }])
    } finally {
      await seeded.close()
    }
  })
})
