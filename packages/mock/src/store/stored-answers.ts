// The answer of a request that writes to the store: it leaves once what the request stored is on
// disk, and when that cannot be stored (its disk full, say), a 507 that names the data directory
// and what to do is sent instead. The mock's server and an app that shares its store (this
// repository's demo) wrap their handlers in it.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { HttpProblem, problemInstance, sendProblem } from '@service-auth/http'
import { StoreError } from './errors.js'
import { answerAfterStoring, type Store } from './store.js'

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>

/**
 * `handle`, answering once its writes are on disk, or with a 507 problem when they cannot be.
 * @example createServer((req, res) => void answeringWhenStored(handle)(req, res))
 */
export function answeringWhenStored(handle: Handler): Handler {
  return (req, res) =>
    answerAfterStoring(
      res,
      () => handle(req, res),
      (error) => {
        // The store's message names the directory and the fix; any other failure says its cause.
        const detail = error instanceof StoreError ? error.message : `The change cannot be stored: ${error instanceof Error ? error.message : String(error)}.`
        sendProblem(res, new HttpProblem(507, detail), problemInstance(req))
      },
    )
}

// What a request may do without changing anything the store keeps.
const READING_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * A 507 for a request that may change something, while the store refuses changes (its disk is
 * full): refused before it is made, so that the 507 changed nothing. (A change a knob makes is
 * refused when it is stored, and stored once there is room: store.ts.)
 */
export function refuseChangesWhileFull(store: Store, method: string | undefined): void {
  const refusal = READING_METHODS.has(method ?? '') ? undefined : store.refusal()
  if (refusal) throw new HttpProblem(507, refusal.message)
}
