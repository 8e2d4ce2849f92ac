// The settings the knobs may change (GET and POST /__knobs/config), apart from the service's
// code, since the knob client (`@service-auth/mock/knobs`) names them too.
import type { RateLimit } from './access/rate-limiter.js'

/** The settings the knobs may change; they apply to what is created or received afterwards. */
export interface ServiceSettings extends RateLimit {
  /** How long a status request is held while nothing happens. */
  holdMs: number
  /** Lifetime of a new challenge. */
  challengeTtlMs: number
  /** Lifetime of an enrollment token when enroll names no timeout. */
  enrollmentTimeoutSeconds: number
}
