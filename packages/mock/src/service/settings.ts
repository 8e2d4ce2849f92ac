// The settings the knobs may change (GET and POST /__knobs/config), apart from the service's
// code, since the knob client (`@service-auth/mock/knobs`) names them too.
import type { RateLimit } from './access/rate-limiter.js'
import { DEFAULT_ENROLLMENT_TIMEOUT_SECONDS, MAX_ENROLLMENT_TIMEOUT_SECONDS } from './enrollments/enrollment-store.js'

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

// setTimeout's ceiling is about 24.8 days; a day is more than any test needs.
export const MAX_TIMER_MS = 86_400_000

/** The whole numbers a setting may be, from `min` to `max`. */
export interface SettingRange {
  readonly min: number
  readonly max: number
}

/**
 * What each setting may be, whoever sets it: the service's options at start (startService) and
 * POST /__knobs/config both refuse anything else, from this one table, so that a value one takes
 * the other cannot refuse.
 */
export const SETTING_RANGES: { readonly [K in keyof ServiceSettings]: SettingRange } = {
  holdMs: { min: 0, max: MAX_TIMER_MS },
  challengeTtlMs: { min: 1, max: MAX_TIMER_MS },
  enrollmentTimeoutSeconds: { min: 1, max: MAX_ENROLLMENT_TIMEOUT_SECONDS },
  rateLimit: { min: 0, max: 1_000_000 },
  browserRateLimit: { min: 0, max: 1_000_000 },
  rateLimitWindowMs: { min: 1, max: MAX_TIMER_MS },
}

/** The settings' names, in the table's order. */
export const SETTING_NAMES = Object.keys(SETTING_RANGES) as (keyof ServiceSettings)[]
