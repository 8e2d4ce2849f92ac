// @vitest-environment node
// Where lmdb cannot be loaded (not installed with --omit=optional, or a platform without its
// binary): memory works, and a data directory fails in one line that names the way out.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'

vi.mock('lmdb', () => {
  throw Object.assign(new Error("Cannot find package 'lmdb' imported from lmdb-backend.ts"), { code: 'ERR_MODULE_NOT_FOUND' })
})

describe('without lmdb', () => {
  let dir: string | undefined
  afterEach(() => dir && rm(dir, { recursive: true, force: true }))

  it('startMockService() keeps its state in memory and serves', async () => {
    const { startMockService } = await import('../../src/index.js')
    const service = await startMockService()
    try {
      const res = await fetch(`${service.url}/v1/entity/challenges`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ key: service.key }),
      })
      expect(res.status).toBe(201)
    } finally {
      await service.close()
    }
  })

  it('a data directory is refused in one line that names the way to keep it in memory: --in-memory, or memoryStore() from JavaScript', async () => {
    const { openDataStore } = await import('../../src/store/open-store.js')
    const { openState } = await import('../../src/command/state-options.js')
    dir = await mkdtemp(join(tmpdir(), 'no-lmdb-'))
    // (vitest wraps the mock's error in its own, so the reason is vitest's here; the package test
    // installs without lmdb for real and sees "it is not installed".)
    const refusal = (way: string) =>
      new RegExp(
        `^A data directory needs lmdb, which could not be loaded \\([^\\n]*\\): install it \\(npm install lmdb\\), or keep the state in memory with ${way}\\.$`,
      )
    await expect(openState({ dataDir: dir })).rejects.toThrow(refusal('--in-memory'))
    await expect(openDataStore(dir)).rejects.toThrow(refusal('memoryStore\\(\\)'))
  })

  it('the command says so, exits 1 and makes no directory: a start, --import and --export alike', async () => {
    const { runCommand } = await import('../../src/command/command-line.js')
    dir = await mkdtemp(join(tmpdir(), 'no-lmdb-'))
    const data = join(dir, '.service-auth')
    const fixture = join(dir, 'fixture.json')
    await writeFile(fixture, JSON.stringify({ format: 'service-auth-state', schema: 1, exportedAt: new Date().toISOString(), collections: {} }))
    const refusal =
      /^A data directory needs lmdb, which could not be loaded \([^\n]*\): install it \(npm install lmdb\), or keep the state in memory with --in-memory\.$/
    for (const args of [
      ['--data', data, '--export', join(dir, 'out.json')],
      ['--data', data, '--port', '0', '--import', fixture],
      ['--data', data, '--port', '0'],
    ]) {
      const errors: string[] = []
      const result = await runCommand(args, {}, { log: () => {}, error: (text) => errors.push(text) })
      expect(result, args.join(' ')).toEqual({ exitCode: 1 })
      expect(errors).toHaveLength(1)
      expect(errors[0]).toMatch(refusal)
      await expect(stat(data)).rejects.toMatchObject({ code: 'ENOENT' })
    }
    await expect(stat(join(dir, 'out.json'))).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
