// What the service's handlers work with, in groups, each part of the code taking the ones it
// needs: where the service is, who may call it, what it keeps, its settings, its timers and its
// hooks. The knobs, a layer in front of it, have a context of their own (../knobs/knob-context.ts).
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Route } from '@service-auth/http'
import type { Timers } from '../common/timers.js'
import type { RequestKind } from '../knobs/fault-rules.js'
import type { ApiKey, KeyRing } from './access/api-keys.js'
import type { RateLimiter } from './access/rate-limiter.js'
import type { ChallengeStore } from './challenges/challenge-store.js'
import type { ConfigurationStore } from './configuration/configuration-store.js'
import type { EnrollmentStore } from './enrollments/enrollment-store.js'
import type { Outbox } from './enrollments/outbox.js'
import type { ServiceHooks } from './hooks.js'
import type { IdentityStore } from './identities/identity-store.js'
import type { SessionStore } from './sessions/session-store.js'
import type { ServiceSettings } from './settings.js'

/** Where the service is. */
export interface Addresses {
  /** The URL the service listens on, no trailing slash. */
  url: string
  /** The public base URL signed requests must name, when it is not the URL they were sent to. */
  baseUrl: string | undefined
  /**
   * The base of every URL the service hands out (pollingUrl, authImages, the token's iss): the
   * configured base URL, as behind a proxy, or else the address it listens on.
   */
  publicUrl: string
}

/** Who may call the service, and how often. */
export interface Access {
  keys: KeyRing
  rateLimiter: RateLimiter
  /** The header a proxy in front of the service names the client's address in, if it has one. */
  clientAddressHeader: string | undefined
}

/** What the service keeps, a store per resource (each writes through to the one Store). */
export interface Stores {
  challenges: ChallengeStore
  identities: IdentityStore
  enrollments: EnrollmentStore
  sessions: SessionStore
  configurations: ConfigurationStore
  outbox: Outbox
}

export interface ServiceContext {
  addresses: Addresses
  access: Access
  stores: Stores
  settings: ServiceSettings
  timers: Timers
  /** Where features such as the test keys plug in. */
  hooks: ServiceHooks
}

export interface Exchange {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  /** Decoded path parameters of the matched route. */
  params: string[]
  /** The request body as text ('' when there was none). */
  body: string
  /** The same body as the bytes that arrived, which a signed request's bodyHash covers. */
  rawBody: Buffer
}

/** A request whose signature checked out, with the key that signed it. */
export interface SignedExchange extends Exchange {
  key: ApiKey
}

export type Handler = (context: ServiceContext, exchange: Exchange) => void | Promise<void>
export type SignedHandler = (context: ServiceContext, exchange: SignedExchange) => void | Promise<void>

/** An endpoint of the /v1/ API; `kind` is what knob rules match on. */
export interface ApiRoute extends Route<Handler> {
  kind: RequestKind
  /** Called by the embed from the integrator's pages: answers CORS, takes no signature. */
  browserFacing: boolean
}
