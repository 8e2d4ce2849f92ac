// The settings the knobs may change (GET and POST /__knobs/config), apart from the service's
// code, since the knob client (`@service-auth/mock/knobs`) names them too.
import type { RateLimit } from './access/rate-limiter.js'
import { DEFAULT_ENROLLMENT_TIMEOUT_SECONDS } from './enrollments/enrollment-store.js'

/** The settings the knobs may change; they apply to what is created or received afterwards. */
export interface ServiceSettings extends RateLimit {
  /** How long a status request is held while nothing happens. */
  holdMs: number
  /** Lifetime of a new challenge. */
  challengeTtlMs: number
  /** Lifetime of an enrollment token when enroll names no timeout. */
  enrollmentTimeoutSeconds: number
}

/** The defaults: the service's when it is given none, and the command's (its options table shows them). */
export const DEFAULT_SETTINGS: Readonly<ServiceSettings> = {
  holdMs: 1000,
  challengeTtlMs: 120_000,
  enrollmentTimeoutSeconds: DEFAULT_ENROLLMENT_TIMEOUT_SECONDS,
  rateLimit: 600,
  browserRateLimit: 120,
  rateLimitWindowMs: 60_000,
}
