// What the knob handlers work with: the service they steer, and the knobs' own state (the rules
// and holds they queue for the service's requests, the request log, and the settings a reset
// restores), which the service's handlers never see.
import type { Exchange, ServiceContext } from '../service/context.js'
import type { ServiceSettings } from '../service/settings.js'
import { RuleQueue, type DelayRule, type FailRule } from './fault-rules.js'
import { Holds } from './holds.js'
import type { RequestLog } from './request-log.js'

/** The rules and holds the fault knobs queue, taken by the fault-injection step in front of the service. */
export class Faults {
  readonly failRules = new RuleQueue<FailRule>()
  readonly delayRules = new RuleQueue<DelayRule>()
  readonly holds = new Holds()
}

export interface KnobContext {
  service: ServiceContext
  faults: Faults
  /** What the service received. */
  log: RequestLog
  /** What `/__knobs/reset` restores. */
  defaults: Readonly<ServiceSettings>
}

export type KnobHandler = (context: KnobContext, exchange: Exchange) => void | Promise<void>
