// Where a start keeps its state, as the command line says (--data, --in-memory, --export,
// --import, as the options table has them), and what those options do: shared by `npm start`,
// `npm run service` and the mock's own command, so all of them read the same options the same way.
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { DirectoryNaming } from '../store/errors.js'
import { memoryStore, openDataDirectory, readDataStore, type StoreOptions } from '../store/open-store.js'
import { collectionNames } from '../store/schema.js'
import { checkedStateFile } from '../store/state-file.js'
import type { Store } from '../store/store.js'
import { COMMAND_OPTIONS, DEFAULT_DATA_DIR, flagsOf, readCommandLine, UsageError, type CommandLine } from './options.js'

export { DEFAULT_DATA_DIR }

export interface StateOptions {
  /** The data directory; undefined keeps everything in memory. */
  dataDir: string | undefined
  exportTo?: string
  importFrom?: string
}

/**
 * How a store opened from these options names its directory in a refusal's "what to do": by the
 * options that gave it (`--data`, `--in-memory`), as the table has them.
 */
export const COMMAND_NAMING: DirectoryNaming = {
  name: (directory) => `name ${directory} with --${COMMAND_OPTIONS.data.flag}`,
  inMemory: `--${COMMAND_OPTIONS.inMemory.flag}`,
  moveToNew: (directory) => {
    const { data, export: exportTo, import: importFrom } = COMMAND_OPTIONS
    return (
      `export its state with --${data.flag} ${directory} --${exportTo.flag} ${exportTo.value} ` +
      `and start the service on a new directory with --${data.flag} ${data.value} --${importFrom.flag} ${importFrom.value}`
    )
  },
}

/** The options that say where the state is kept. */
export const STATE_FLAGS = ['data', 'inMemory', 'export', 'import'] as const

/** The state options of a command line that has no others; a mistake throws a message for people. */
export function readStateOptions(args: string[], env: Record<string, string | undefined>): StateOptions {
  let line: CommandLine<(typeof STATE_FLAGS)[number]>
  try {
    line = readCommandLine(args, STATE_FLAGS)
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    throw new Error(`${error.message} Options: ${flagsOf(STATE_FLAGS)}.`)
  }
  return stateOptionsFrom(line, env)
}

/** The state options from the command line's (readCommandLine) and the environment. */
export function stateOptionsFrom(line: CommandLine<(typeof STATE_FLAGS)[number]>, env: Record<string, string | undefined>): StateOptions {
  if (line.inMemory && line.data !== undefined) throw new Error('--data and --in-memory contradict each other: choose one.')
  if (line.export !== undefined && line.import !== undefined)
    throw new Error('--export and --import are separate runs: export from one directory, import into another.')
  if (line.inMemory && line.export !== undefined)
    throw new Error("--export writes a data directory's state, and --in-memory has none: name the directory with --data.")
  for (const name of ['data', 'export', 'import'] as const) {
    if (line[name] === '') throw new Error(`--${name} needs a path.`)
  }
  const dataDir = line.inMemory ? undefined : (line.data ?? (env[COMMAND_OPTIONS.data.env] || DEFAULT_DATA_DIR))
  return { dataDir, exportTo: line.export, importFrom: line.import }
}

/**
 * Writes the data directory's state to `exportTo`, even while a service runs on it; the number of
 * records. Every collection the directory holds is written, whoever keeps it.
 */
export async function exportState({ dataDir, exportTo }: StateOptions, storeOptions: StoreOptions = {}): Promise<number> {
  if (dataDir === undefined || exportTo === undefined) throw new Error('Export needs a data directory and a file.')
  const store = await readDataStore(dataDir, storeOptions, COMMAND_NAMING)
  try {
    const state = store.export()
    // The file holds the API secret the service made up: readable by its owner only.
    try {
      writeFileSync(exportTo, JSON.stringify(state, null, 2) + '\n', { mode: 0o600 })
    } catch (error) {
      throw new Error(`--export ${exportTo} cannot be written: ${(error as Error).message}`)
    }
    return Object.values(state.collections).reduce((sum, records) => sum + Object.keys(records).length, 0)
  } finally {
    await store.close()
  }
}

/**
 * The store the options name, seeded from `importFrom` when given; the caller closes it.
 * `storeOptions.collections`: the caller's own, beside the mock's (an app that shares the store).
 */
export async function openState({ dataDir, importFrom }: StateOptions, storeOptions: StoreOptions = {}): Promise<Store> {
  // Read and checked whole before the store is opened, so that a file it refuses leaves no new
  // data directory behind. (The import checks it again, against what the directory holds.)
  const file = importFrom === undefined ? undefined : readStateFile(importFrom)
  if (importFrom !== undefined) checkedStateFile(file, { source: importFrom, collections: collectionNames(storeOptions.collections) })
  const store = dataDir === undefined ? memoryStore(storeOptions) : await openDataDirectory(dataDir, storeOptions, COMMAND_NAMING)
  try {
    if (importFrom !== undefined) await store.import(file, importFrom)
    return store
  } catch (error) {
    await store.close()
    throw error
  }
}

/** One line for the start-up banner: where the state is, and how to keep it elsewhere. */
export function describeState(store: Store): string {
  return store.location === 'memory'
    ? 'State: in memory; a restart starts empty (--data DIR keeps it).'
    : `State: kept in ${store.location} (--in-memory keeps nothing; --export FILE writes it as JSON).`
}

function readStateFile(file: string): unknown {
  let text: string
  try {
    text = readFileSync(resolve(file), 'utf8')
  } catch (error) {
    throw new Error(`--import ${file} cannot be read: ${(error as Error).message}`)
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new Error(`--import ${file} is not JSON: ${(error as Error).message}`)
  }
}
