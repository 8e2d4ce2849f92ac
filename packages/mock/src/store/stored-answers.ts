// The answer of a request that writes to the store: it leaves once what the request stored is on
// disk, and when that cannot be stored (its disk full, say), a 507 that names the data directory
// and what to do is sent instead. The mock's server and an app that shares its store (this
// repository's demo) wrap their handlers in it.
import { AsyncLocalStorage } from 'node:async_hooks'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { HttpProblem, problemInstance, sendProblem } from '@service-auth/http'
import { StoreError } from './errors.js'
import type { Store } from './store.js'

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

/** The durable writes of the request being handled, which its answer waits for. */
const requestWrites = new AsyncLocalStorage<Promise<unknown>[]>()

/**
 * Runs one request's handler so that its answer leaves only once the writes the handler made
 * with `answer` durability are on disk. Requests that wrote nothing, status polls above all,
 * answer at once, even while other requests' writes are being flushed. When a write cannot be
 * stored, the answer the handler gave is dropped, and `unstored` answers instead: a change that
 * was not stored must not be answered as a success.
 */
function answerAfterStoring(res: ServerResponse, handle: () => Promise<void>, unstored: (error: unknown) => void): Promise<void> {
  const writes: Promise<unknown>[] = []
  const { writeHead, end } = res
  // Held back with the body while writes are pending: until they are stored, the status may still change.
  let head: Parameters<typeof writeHead> | undefined
  let ending = false
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    if (writes.length === 0) return writeHead.apply(this, args as Parameters<typeof writeHead>)
    head = args as Parameters<typeof writeHead>
    return this
  } as typeof res.writeHead
  res.end = function (this: ServerResponse, ...args: unknown[]) {
    if (writes.length === 0 && head === undefined) return end.apply(this, args as Parameters<typeof end>)
    if (ending) return this
    ending = true
    Promise.all(writes).then(
      () => {
        // The client may have gone meanwhile (or the server closed its connections): nothing to send then.
        if (this.destroyed) return
        if (head) writeHead.apply(this, head)
        end.apply(this, args as Parameters<typeof end>)
      },
      (error: unknown) => {
        // The answer the handler gave is not sent; the methods are Node's own again for the one that is.
        delete (res as Partial<ServerResponse>).writeHead
        delete (res as Partial<ServerResponse>).end
        if (!this.destroyed) unstored(error)
      },
    )
    return this
  } as typeof res.end
  return requestWrites.run(writes, handle)
}

/** Holds the answer of the request being handled, if any, until `stored` (one of its writes, with `answer` durability) is on disk. */
export function answerWaitsFor(stored: Promise<unknown>): void {
  requestWrites.getStore()?.push(stored)
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
