// @vitest-environment node
// The store's contract, run against both backends: memory (the tests', --in-memory) and a data
// directory (LMDB). The same records come back, the collections are the mock's and its opener's,
// an export of one imports into the other, and an answer waits for exactly the writes its own
// request made.
import { createServer, type Server } from 'node:http'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { listen, serve } from '@service-auth/http'
import { StoreError } from '../../src/store/errors.js'
import { memoryStore, openDataStore, type StoreOptions } from '../../src/store/open-store.js'
import { MOCK_COLLECTIONS, SCHEMA_VERSION, type MockCollectionName } from '../../src/store/schema.js'
import { Store, type Backend } from '../../src/store/store.js'
import { answeringWhenStored } from '../../src/store/stored-answers.js'
import { identityRecord } from './records.js'

let work: string
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'service-auth-store-'))
})
afterAll(() => rm(work, { recursive: true, force: true }))

let made = 0
const BACKENDS: [string, (options?: StoreOptions) => Promise<Store>][] = [
  ['memory', async (options) => memoryStore(options)],
  ['a data directory', (options) => openDataStore(join(work, `store-${++made}`), options)],
]
/** An app's own collection beside the mock's, as the demo keeps its users. */
const SHOP = { collections: ['shop-orders'] }

describe.each(BACKENDS)('a store in %s', (_, open) => {
  const opened: Store[] = []
  const fresh = async (options?: StoreOptions) => {
    const store = await open(options)
    opened.push(store)
    return store
  }
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()))
  })

  it('gives back what was put, as JSON, less what was deleted or cleared', async () => {
    const store = await fresh()
    const identities = store.collection<{ id: string; devices: { id: string }[]; nickname: string | null }>('identities')
    identities.put('a', { id: 'a', devices: [{ id: 'd' }], nickname: null })
    identities.put('b', { id: 'b', devices: [], nickname: 'Bee' })
    identities.put('a', { id: 'a', devices: [], nickname: 'Ada' })
    store.collection('outbox').put('m', { seq: 1 })
    identities.delete('b')
    await store.flushed()
    expect(identities.load()).toEqual([{ id: 'a', devices: [], nickname: 'Ada' }])
    expect(store.isEmpty()).toBe(false)
    identities.clear()
    store.collection('outbox').clear()
    await store.flushed()
    expect(identities.load()).toEqual([])
    expect(store.isEmpty()).toBe(true)
  })

  it("keeps the mock's collections and those its opener names, and refuses any other name", async () => {
    const mockOnly = await fresh()
    expect(() => mockOnly.collection('shop-orders')).toThrow(
      `This store keeps no collection "shop-orders": name it when opening the store ({ collections: ["shop-orders"] }). It keeps the mock's (${MOCK_COLLECTIONS.join(', ')}) and no other.`,
    )
    expect(() => mockOnly.collection('app-users')).toThrow(StoreError)
    const shop = await fresh(SHOP)
    shop.collection('shop-orders').put('o1', { total: 3 })
    await shop.flushed()
    expect(shop.collection('shop-orders').load()).toEqual([{ total: 3 }])
    // An app's record alone is state: an import would overwrite it.
    expect(shop.isEmpty()).toBe(false)
    expect(() => shop.collection('shop-carts')).toThrow(
      "It keeps the mock's (credentials, challenges, identities, enrollments, sessions, configurations, outbox) and shop-orders.",
    )
  })

  it.each([
    [['identities'], 'The collection "identities" cannot be added: the mock service keeps one by that name.'],
    [['orders', 'orders'], 'The collection "orders" cannot be added: it is named twice.'],
    [['meta'], '"meta" cannot name a collection'],
    [['Orders'], '"Orders" cannot name a collection: use lowercase letters, digits and dashes, starting with a letter'],
    [['../orders'], '"../orders" cannot name a collection'],
  ])('is not opened with the collections %j', async (collections, message) => {
    await expect(open({ collections })).rejects.toThrow(message)
  })

  it('is not opened, nor its directory made, with collections that are no list (a name alone, from JavaScript)', async () => {
    const made = join(work, 'never-made')
    const refusal = new TypeError(`collections must be a list of names, such as ['app-users'], not "x".`)
    await expect(open({ collections: 'x' as unknown as string[] })).rejects.toThrow(refusal)
    await expect(openDataStore(made, { collections: 'x' as unknown as string[] })).rejects.toThrow(refusal)
    await expect(stat(made)).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('exports every collection as JSON that imports into a fresh store of either kind', async () => {
    const store = await fresh(SHOP)
    store.collection('credentials').put('generated', { apiKey: 'k', apiSecret: 's' })
    store.collection('shop-orders').put('o1', { customer: 'ada@example.com', total: 3 })
    await store.flushed()
    const exported = JSON.parse(JSON.stringify(store.export(new Date('2026-01-02T03:04:05Z'))))
    expect(exported).toEqual({
      format: 'service-auth-state',
      schema: SCHEMA_VERSION,
      exportedAt: '2026-01-02T03:04:05.000Z',
      collections: {
        credentials: { generated: { apiKey: 'k', apiSecret: 's' } },
        'shop-orders': { o1: { customer: 'ada@example.com', total: 3 } },
      },
    })
    for (const [, other] of BACKENDS) {
      const copy = await other(SHOP)
      opened.push(copy)
      expect(await copy.import(exported)).toBe(2)
      expect(copy.export(new Date('2026-01-02T03:04:05Z'))).toEqual(exported)
      // A store of the mock alone does not take the app's records, where nobody would read them.
      const mockOnly = await other()
      opened.push(mockOnly)
      await expect(mockOnly.import(exported, 'x.json')).rejects.toThrow(
        `x.json names a collection this store does not keep: shop-orders (it keeps ${MOCK_COLLECTIONS.join(', ')}). Import it with the program that exported it.`,
      )
      expect(mockOnly.isEmpty()).toBe(true)
    }
  })

  it('imports into an empty store only, and refuses a file that is not an export of this schema', async () => {
    const store = await fresh()
    const file = (changes: object) => ({ format: 'service-auth-state', schema: SCHEMA_VERSION, exportedAt: '', collections: {}, ...changes })
    await expect(store.import({ hello: 'world' }, 'x.json')).rejects.toThrow('x.json is not a service-auth state export')
    await expect(store.import(file({ schema: SCHEMA_VERSION + 1 }), 'x.json')).rejects.toThrow(
      `schema ${SCHEMA_VERSION + 1}, and this version reads schema ${SCHEMA_VERSION}`,
    )
    await expect(store.import(file({ collections: { people: {} } }), 'x.json')).rejects.toThrow('x.json names a collection this store does not keep: people')
    await expect(store.import(file({ collections: { identities: [] } }), 'x.json')).rejects.toThrow('x.json: identities must be an object of records by id.')
    await expect(store.import(file({ collections: { identities: { a: 'text' } } }), 'x.json')).rejects.toThrow('identities "a": must be an object.')
    expect(store.isEmpty()).toBe(true)
    store.collection('identities').put('a', identityRecord('a'))
    await expect(store.import(file({}), 'x.json')).rejects.toThrow('holds state already; --import seeds a fresh service only')
  })
})

describe('an answer', () => {
  /** A backend whose commits the test completes by hand, to see what waits for them. */
  class HeldBackend implements Backend {
    readonly location = 'held'
    readonly collections = MOCK_COLLECTIONS
    readonly commits: (() => void)[] = []
    readonly failures: ((error: Error) => void)[] = []
    /** The flush of every write so far, set by a test to one that never ends: writes made after its own still on their way. */
    everything: Promise<unknown> | undefined
    entries(): Iterable<[string, string]> {
      return []
    }
    write(): Promise<unknown> {
      return new Promise((resolve, reject) => {
        this.commits.push(() => resolve(undefined))
        this.failures.push(reject)
      })
    }
    clear(): undefined {
      return undefined
    }
    flushed(): Promise<unknown> | undefined {
      return this.everything
    }
    refusal(): undefined {
      return undefined
    }
    async close(): Promise<void> {}
  }

  const backend = new HeldBackend()
  const store = new Store(backend)
  let server: Server
  let url: string
  beforeAll(async () => {
    server = createServer(
      serve(
        answeringWhenStored(async (req, res) => {
          const path = new URL(req.url!, 'http://x').pathname
          const collection = 'identities' satisfies MockCollectionName
          if (path === '/write') store.collection(collection).put('a', {})
          if (path === '/batched') store.collection(collection).put('b', {}, 'batched')
          res.writeHead(200).end(path)
        }),
      ),
    )
    url = await listen(server)
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it('waits until its own writes are stored, while one that wrote nothing answers at once', async () => {
    let answered = false
    const writing = fetch(url + '/write').then((res) => {
      answered = true
      return res.text()
    })
    await expect.poll(() => backend.commits.length).toBe(1)
    // A read meanwhile is not held up by another request's write.
    expect(await (await fetch(url + '/read')).text()).toBe('/read')
    expect(answered).toBe(false)
    backend.commits.shift()!()
    backend.failures.shift()
    expect(await writing).toBe('/write')
  })

  it('waits for its own write to be on disk, not for the writes made after it', async () => {
    // A backend's write resolves once the commit it went into is on disk; under a stream of
    // creations, the flush of everything so far is always a later batch's, here one never done.
    backend.everything = new Promise(() => {})
    try {
      let answered = false
      const writing = fetch(url + '/write').then((res) => {
        answered = true
        return res.text()
      })
      await expect.poll(() => backend.commits.length).toBe(1)
      expect(answered).toBe(false)
      backend.commits.shift()!()
      backend.failures.shift()
      expect(await writing).toBe('/write')
    } finally {
      backend.everything = undefined
    }
  })

  it('does not wait for a batched write', async () => {
    expect(await (await fetch(url + '/batched')).text()).toBe('/batched')
    backend.commits.shift()!()
    backend.failures.shift()
  })

  /** Sends a write whose commit then fails with `error`: its answer, and what the console was told meanwhile. */
  const failedWrite = async (error: Error) => {
    const writing = fetch(url + '/write')
    await expect.poll(() => backend.failures.length).toBe(1)
    backend.commits.shift()
    const errors: unknown[] = []
    const logged = console.error
    console.error = (...args: unknown[]) => void errors.push(args[0])
    try {
      backend.failures.shift()!(error)
      const res = await writing
      return { res, body: await res.json(), errors }
    } finally {
      console.error = logged
    }
  }

  it('is never sent as a success when its write fails: it is a 507 instead, with the reason', async () => {
    const { res, body, errors } = await failedWrite(new StoreError('The change cannot be stored in /data: its disk is full.', { code: 'full' }))
    expect(res.status).toBe(507)
    expect(res.headers.get('content-type')).toBe('application/problem+json')
    expect(body).toMatchObject({
      status: 507,
      title: 'Insufficient Storage',
      detail: 'The change cannot be stored in /data: its disk is full.',
      instance: '/write',
    })
    // A full disk is said once, by the store's refusal, not for every write.
    expect(errors).toEqual([])
  })

  it('is a 507 naming the cause when a write fails for any other reason, which the console shows too', async () => {
    const { res, body, errors } = await failedWrite(new Error('I/O error'))
    expect(res.status).toBe(507)
    expect(body.detail).toBe('The change cannot be stored: I/O error.')
    expect(errors).toEqual(['A change to held could not be stored.'])
  })
})
