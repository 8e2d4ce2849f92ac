// @vitest-environment node
// The records the store keeps are checked against their shapes (store/record-shape.ts, each
// written beside its record's type): an import refuses a bad one before it writes anything, and
// a data directory that holds one is refused at start in one line that names it and the way out,
// rather than a TypeError from inside the service. Every record the service itself writes passes.
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { decodeJwt } from 'jose'
import { createClient } from 'service-auth/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCommand } from '../../src/command/command-line.js'
import { startService } from '../../src/service/server.js'
import { StoreError } from '../../src/store/errors.js'
import { memoryStore, openDataStore } from '../../src/store/open-store.js'
import { rememberedCredentials } from '../../src/store/remembered-credentials.js'
import { MOCK_COLLECTIONS, SCHEMA_VERSION } from '../../src/store/schema.js'
import type { StateFile } from '../../src/store/store.js'
import { identityRecord } from './records.js'

let work: string
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'service-auth-records-'))
})
afterAll(() => rm(work, { recursive: true, force: true }))

const stateFile = (collections: StateFile['collections']): StateFile => ({
  format: 'service-auth-state',
  schema: SCHEMA_VERSION,
  exportedAt: '2026-01-02T03:04:05.000Z',
  collections,
})

/** The command, in this process: its exit code and what it printed on each stream. */
async function command(args: string[]) {
  const out: string[] = []
  const errors: string[] = []
  const result = await runCommand(args, {}, { log: (text) => out.push(text), error: (text) => errors.push(text) })
  if ('service' in result) await result.close()
  return { ...('exitCode' in result ? { exitCode: result.exitCode } : { started: true }), out, errors }
}

describe('the records of a service', () => {
  it('of every kind, as the service writes them, export and import again', { timeout: 30_000 }, async () => {
    const store = memoryStore()
    const { apiKey: key, apiSecret: secret } = rememberedCredentials(store)
    const service = await startService({ port: 0, keys: [{ key, secret }], knobs: true, store })
    try {
      const client = createClient({ baseUrl: service.url, key, secret })
      await client.configuration.update({ sessionsEnabled: true, websiteUrl: 'https://shop.example' })
      const { enrollment } = await client.enroll({ identifier: 'ada@example.com', sendEmail: true })
      const knob = (path: string, body: object) =>
        fetch(`${service.url}/__knobs/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
      expect((await knob('devices', { token: enrollment.id })).status).toBe(201)
      const created = await fetch(`${service.url}/v1/entity/challenges`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0.0.0' },
        body: JSON.stringify({ key }),
      })
      const { id } = (await created.json()) as { id: string }
      const { token } = (await (await knob(`challenges/${id}/sign`, { identifier: 'ada@example.com' })).json()) as { token: string }
      const { otp } = decodeJwt(token) as { otp: string }
      expect((await client.authenticate('ada@example.com', { challenge: id, otp })).session).not.toBeNull()
    } finally {
      await service.close()
    }
    const exported = JSON.parse(JSON.stringify(store.export())) as StateFile
    // Every kind of the mock's, so that none of its shapes goes untried.
    expect(Object.keys(exported.collections).sort()).toEqual([...MOCK_COLLECTIONS].sort())
    const copy = memoryStore()
    const count = Object.values(exported.collections).reduce((sum, records) => sum + Object.keys(records).length, 0)
    expect(await copy.import(exported, 'fixture.json')).toBe(count)
  })
})

describe('--import of a file with a bad record', () => {
  it('is refused, naming the file, the collection, the record and what is wrong, and writes nothing', { timeout: 30_000 }, async () => {
    const file = join(work, 'bad.json')
    await writeFile(file, JSON.stringify(stateFile({ identities: { ada: identityRecord('ada'), 'id-2': { garbage: true } } })))
    const data = join(work, 'd5')
    const refused = await command(['--data', data, '--port', '0', '--import', file])
    expect(refused).toEqual({
      exitCode: 1,
      out: [],
      errors: [
        `${file} holds a record this version cannot import: identities "id-2": lacks id, app, seq, createdAt, identifier, nickname, role, locked and devices; ` +
          `has garbage, which this version does not store. Nothing was imported: correct or remove that record in ${file}, or make the file again with --export.`,
      ],
    })
    // Not even the directory: the next start, or an import of the corrected file, finds it as it was.
    await expect(stat(data)).rejects.toMatchObject({ code: 'ENOENT' })
    await expect(command(['--in-memory', '--port', '0', '--import', file])).resolves.toMatchObject({ exitCode: 1 })
  })

  it.each([
    ['a field of the wrong type', { seq: '1' }, 'identities "ada": seq must be a whole number, not "1"'],
    [
      'a time that is none',
      { createdAt: 'yesterday' },
      'identities "ada": createdAt must be a time as ISO 8601 text (2026-01-02T03:04:05.000Z), not "yesterday"',
    ],
    ['null where it may not be', { role: null }, 'identities "ada": role must be text, not null'],
    ['a bad phone', { devices: [{ id: 'p', createdAt: '2026-01-02T03:04:05Z', model: 'Pixel' }] }, 'identities "ada": devices[0] lacks label'],
    ['a typo', { nicknmae: 'Ada' }, 'identities "ada": has nicknmae, which this version does not store'],
    ['an id that is not its key', { id: 'bob' }, 'identities "ada": id is "bob", not the key it is stored under'],
  ])('with %s, says which', async (_, changes, problem) => {
    const store = memoryStore()
    const file = stateFile({ identities: { ada: { ...identityRecord('ada'), ...changes } } })
    const refusal = await store.import(file, 'fixture.json').catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(StoreError)
    expect(refusal).toMatchObject({
      code: 'record',
      message: `fixture.json holds a record this version cannot import: ${problem}. Nothing was imported: correct or remove that record in fixture.json, or make the file again with --export.`,
    })
    expect(store.isEmpty()).toBe(true)
  })

  it('names the first of several bad records, and the others', async () => {
    const store = await openDataStore(join(work, 'several'))
    try {
      const file = stateFile({
        credentials: { generated: { apiKey: 'k', apiSecret: 's' } },
        challenges: { c1: { id: 'c1', state: 'done' } },
        outbox: { m1: { seq: 1 } },
      })
      await expect(store.import(file, 'x.json')).rejects.toThrow(
        'x.json holds 2 records this version cannot import (challenges "c1", outbox "m1"); the first, challenges "c1": lacks pollSecret, app, key, authType, browser, createdAt and expiresAt; state must be one of "pending", "signed", "expired" or "consumed", not "done". Nothing was imported: correct or remove those records in x.json',
      )
      expect(store.isEmpty()).toBe(true)
    } finally {
      await store.close()
    }
  })
})

describe('a data directory that holds a bad record', () => {
  it('is refused at start in one line naming the directory, the record and the way out, which --export and --import then take', {
    timeout: 30_000,
  }, async () => {
    // As a version whose records had another shape, or a hand, left it.
    const data = join(work, 'older')
    const store = await openDataStore(data)
    rememberedCredentials(store)
    store.collection('identities').put('ada', identityRecord('ada'))
    store.collection('identities').put('old-1', { ...identityRecord('old-1'), devices: undefined })
    await store.close()

    const refused = await command(['--data', data, '--port', '0'])
    expect(refused).toEqual({
      exitCode: 1,
      out: [],
      errors: [
        `${data} holds a record this version cannot read (written by another version of service-auth, or by hand): identities "old-1": lacks devices. ` +
          `It is left as it is: export its state with --data ${data} --export FILE and start the service on a new directory with --data DIR --import FILE, ` +
          'correcting or removing that record in the export first.',
      ],
    })
    // The way out it names: the export holds every record, the bad one too; corrected, it imports.
    const file = join(work, 'older.json')
    expect(await command(['--data', data, '--export', file])).toMatchObject({ exitCode: 0 })
    const state = JSON.parse(await readFile(file, 'utf8')) as StateFile
    expect(Object.keys(state.collections.identities!).sort()).toEqual(['ada', 'old-1'])
    ;(state.collections.identities!['old-1'] as { devices: unknown[] }).devices = []
    await writeFile(file, JSON.stringify(state))
    expect(await command(['--data', join(work, 'newer'), '--port', '0', '--import', file])).toMatchObject({ started: true, errors: [] })
  })

  it('that is no JSON at all is exported as its text, so that the way out the start names works, and nothing is lost', { timeout: 30_000 }, async () => {
    // As a damaged disk, or a hand, left it: below the store, where the service never writes.
    const data = join(work, 'damaged')
    const store = await openDataStore(data)
    rememberedCredentials(store)
    store.collection('identities').put('ada', identityRecord('ada'))
    await store.backend.write('identities', 'torn', '{"id": "torn", "app"')
    await store.close()

    expect((await command(['--data', data, '--port', '0'])).errors).toEqual([expect.stringContaining('identities "torn": is not JSON.')])
    const file = join(work, 'damaged.json')
    expect(await command(['--data', data, '--export', file])).toMatchObject({ exitCode: 0 })
    const state = JSON.parse(await readFile(file, 'utf8')) as StateFile
    expect(state.collections.identities).toEqual({ ada: identityRecord('ada'), torn: '{"id": "torn", "app"' })
    // The import names it, to be mended or removed in the file.
    expect(await command(['--data', join(work, 'mended'), '--port', '0', '--import', file])).toEqual({
      exitCode: 1,
      out: [],
      errors: [expect.stringContaining('identities "torn": must be an object.')],
    })
  })

  it("of an app's own collection is a JSON object: put takes nothing else, and a directory holding another value is refused as its export's import is", async () => {
    const data = join(work, 'app-values')
    const store = await openDataStore(data, { collections: ['app-users'] })
    const users = store.collection<object>('app-users')
    users.put('ada', { name: 'Ada' })
    for (const value of [5, 'text', null, ['a list']])
      expect(() => users.put('u1', value as never)).toThrow(
        new TypeError(
          `A record of app-users must be a JSON object ({…}); "u1" was given ${JSON.stringify(value) === '["a list"]' ? 'a list' : JSON.stringify(value)}.`,
        ),
      )
    // As a hand, or an older version that took any value, left one: below the store.
    await store.backend.write('app-users', 'u1', '5')
    await store.close()
    await expect(openDataStore(data, { collections: ['app-users'] })).rejects.toThrow('app-users "u1": must be an object.')
    // An export holding it names the same record the same way when imported: the two agree.
    const fresh = memoryStore({ collections: ['app-users'] })
    const state = stateFile({ 'app-users': { ada: { name: 'Ada' }, u1: 5 } })
    await expect(fresh.import(state, 'app-values.json')).rejects.toThrow('app-users "u1": must be an object.')
  })

  it('is refused by openDataStore too, naming its own way out', async () => {
    const data = join(work, 'older-js')
    const store = await openDataStore(data)
    store.collection('sessions').put('s1', { id: 's1' })
    await store.close()
    await expect(openDataStore(data)).rejects.toThrow(
      `${data} holds a record this version cannot read (written by another version of service-auth, or by hand): sessions "s1": lacks app, identityId, device, client, createdAt, updatedAt and expiresAt. ` +
        `It is left as it is: export the state of ${data} with the store's export() and import it with import() into a store of a new directory (openDataStore), correcting or removing that record in the export first.`,
    )
    // Left as it is, and open to be read for the export.
    await expect(openDataStore(data)).rejects.toMatchObject({ code: 'record' })
  })
})
