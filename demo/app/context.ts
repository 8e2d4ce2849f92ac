// What every handler of the example application works with.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Client } from 'service-auth/server'
import type { ControllerLog } from './controller-log.js'
import type { Sessions } from './sessions.js'
import type { Users } from './users.js'

export interface AppContext {
  /** The sign-in service's base URL, no trailing slash. */
  serviceUrl: string
  apiKey: string
  /** The API secret as the service issued it (Base64 text), for verifying the service's tokens. */
  apiSecret: string
  /** Signed calls to the service's server-side API. */
  serviceClient: Client
  /** Where the built embed lives. */
  distDir: string
  /** Where the pages' own scripts and styles live. */
  publicDir: string
  sessions: Sessions
  /** This site's accounts: who may sign in. */
  users: Users
  controllerLog: ControllerLog
  /** The controller's `mode` parameter works (see controller-route.ts); for the end-to-end tests only. */
  testModes: boolean
}

export interface AppExchange {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  /** Decoded path parameters of the matched route. */
  params: string[]
}

export type AppHandler = (context: AppContext, exchange: AppExchange) => void | Promise<void>
