// Run by sync-faults.test.ts in a process of its own, with fail-sync.c preloaded: a store whose
// last commit's flush fails. Prints, as JSON, how stored() ended, the refusal that follows (its
// code and its message), and whether close() ended: each raced against a time limit, as lmdb-js never settles that flush.
import { rmSync, writeFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import { openDataStore } from '../../src/store/open-store.js'
import { identityRecord } from './records.js'

const [dataDir, flag] = process.argv.slice(2) as [string, string]
const within = <T>(promise: Promise<T>, what: string) => Promise.race([promise, sleep(5000).then(() => `${what} still waiting after 5 s`)])

const store = await openDataStore(dataDir)
const identities = store.collection<{ id: string }>('identities')
identities.put('before', identityRecord('before'))
await store.stored()
writeFileSync(flag, 'ENOSPC')
identities.put('failed', identityRecord('failed'))
const stored = await within(
  store.stored().then(
    () => 'stored',
    (error: { code?: string }) => `refused: ${error.code}`,
  ),
  'stored()',
)
rmSync(flag)
const { code: refusal, message } = store.refusal() ?? {}
const closed = await within(
  store.close().then(() => 'closed'),
  'close()',
)
console.log(JSON.stringify({ stored, refusal, message, closed }))
process.exit(0)
