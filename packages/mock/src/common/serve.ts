// Turns an async request handler into a Node request listener that always answers: thrown
// HttpProblems become problem JSON, anything else is a bug in the server and says so. An answer
// leaves once what its request stored is on disk (answerAfterStoring), or, when that cannot be
// stored, is a 507 instead.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { StoreError } from '../store/errors.js'
import { answerAfterStoring } from '../store/store.js'
import { HttpProblem, sendProblem } from './problem.js'
import { ClientGone } from './read-body.js'

export interface ServeOptions {
  /** Who failed, in the 500 a bug answers with (`The … failed; see its console.`); default "mock service". */
  serverName?: string
}

export function serve(
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  { serverName = 'mock service' }: ServeOptions = {},
): RequestListener {
  // Named by whoever serves with it: an app built on these helpers is not the mock service.
  const failed = `The ${serverName} failed; see its console.`
  return (req, res) => {
    // The request's path; a target that is none (`*`, an absolute URL) is refused for that, and names `/`.
    const target = req.url ?? '/'
    const instance = target.startsWith('/') ? target.split('?')[0]! : '/'
    // A change the store could not keep (its disk full, say): the store's message names the directory and what to do.
    const unstored = (error: unknown) => {
      const detail = error instanceof StoreError ? error.message : `The change cannot be stored: ${error instanceof Error ? error.message : String(error)}.`
      sendProblem(res, new HttpProblem(507, detail), instance)
    }
    answerAfterStoring(res, () => handle(req, res), unstored).catch((error: unknown) => {
      if (error instanceof ClientGone) return
      if (error instanceof HttpProblem) {
        sendProblem(res, error, instance)
        return
      }
      // Bad input never lands here (it is a 4xx above); this is a bug, so it is loud.
      console.error(error)
      sendProblem(res, new HttpProblem(500, failed), instance)
    })
  }
}
