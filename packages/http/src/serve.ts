// Turns an async request handler into a Node request listener that always answers: thrown
// HttpProblems become problem JSON, anything else is a bug in the server and says so. A server
// that keeps a store wraps its handler so that an answer waits for its writes (the mock's
// answeringWhenStored): that is the store's business, not this file's.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import { HttpProblem, problemInstance, sendProblem } from './problem.js'
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
    handle(req, res).catch((error: unknown) => {
      if (error instanceof ClientGone) return
      const instance = problemInstance(req)
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
