// The API key and secret a start makes up when it is given none: kept in the store, so that a
// restart answers to the same key and an open login page carries on, its key still known.
import { generateCredentials, type Credentials } from '../common/credentials.js'
import { object, type RecordKind, text } from './record-shape.js'
import type { Store } from './store.js'

const ID = 'generated'

// The one record's key is its own (ID): a record of another key is read all the same.
export const CREDENTIALS_RECORDS: RecordKind<Credentials> = { shape: object<Credentials>({ apiKey: text, apiSecret: text }) }

/** The pair this store remembers, made up and stored the first time (in memory: every time). */
export function rememberedCredentials(store: Store): Credentials {
  const records = store.collection<Credentials>('credentials')
  const [remembered] = records.load()
  if (remembered) return remembered
  const made = generateCredentials()
  records.put(ID, made)
  return made
}
