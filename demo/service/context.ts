// What every service handler works with: the settings, the state and the request at hand.
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Route } from '../common/router.ts'
import type { Timers } from '../common/timers.ts'
import type { ChallengeStore } from './challenge-store.ts'
import type { DelayRule, FailRule, RequestKind, RuleQueue } from './fault-rules.ts'
import type { RequestLog } from './request-log.ts'

/** The settings the knobs may change; they apply to challenges created and polls received afterwards. */
export interface ServiceSettings {
  /** How long a status request is held while nothing happens. */
  holdMs: number
  /** Lifetime of a new challenge. */
  challengeTtlMs: number
}

export interface ServiceContext {
  /** Base URL, no trailing slash. */
  url: string
  apiKey: string
  /** The decoded API secret. */
  secret: Uint8Array
  allowedOrigins(): readonly string[]
  settings: ServiceSettings
  /** What `/__knobs/reset` restores. */
  defaults: Readonly<ServiceSettings>
  store: ChallengeStore
  failRules: RuleQueue<FailRule>
  delayRules: RuleQueue<DelayRule>
  log: RequestLog
  timers: Timers
}

export interface Exchange {
  req: IncomingMessage
  res: ServerResponse
  url: URL
  /** Decoded path parameters of the matched route. */
  params: string[]
  /** The request body as text ('' when there was none). */
  body: string
}

export type Handler = (context: ServiceContext, exchange: Exchange) => void | Promise<void>

/** A browser-facing endpoint; `kind` is what knob rules match on. */
export interface ApiRoute extends Route<Handler> {
  kind: RequestKind
}
