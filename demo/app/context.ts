// What every handler of the example application works with.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Client } from '../../src/server/index.ts'
import type { ControllerLog } from './controller-log.ts'
import type { Sessions } from './sessions.ts'

export interface AppContext {
  /** The sign-in service's base URL, no trailing slash. */
  serviceUrl: string
  apiKey: string
  /** The decoded API secret, for verifying the service's tokens. */
  secret: Uint8Array
  /** Signed calls to the service's server-side API. */
  serviceClient: Client
  /** Where the built embed lives. */
  distDir: string
  /** Where the pages' own scripts and styles live. */
  publicDir: string
  sessions: Sessions
  controllerLog: ControllerLog
}

export interface AppExchange {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  /** Decoded path parameters of the matched route. */
  params: string[]
}

export type AppHandler = (context: AppContext, exchange: AppExchange) => void | Promise<void>
