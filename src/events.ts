/**
 * The widget's events, each dispatched as `service-auth:<name>`: the one list, which the tests
 * and the demo's event log (demo/app/public/events.js, checked by test/events.test.ts) follow.
 */
export const EVENT_NAMES = ['ready', 'signed', 'success', 'expired', 'error'] as const

export type EventName = (typeof EVENT_NAMES)[number]

export interface EventDetails {
  ready: { challengeId: string; expiresAt: string }
  signed: { challengeId: string }
  success: SuccessDetail
  expired: { challengeId: string }
  error: ErrorDetail
}

/** Where the browser goes next; both are absent when the page reloads instead. */
export interface SuccessDetail {
  /** The location the controller answered, absolute (`https://example.com/welcome`). */
  location?: string
  /**
   * The same location as a path on this origin (pathname, search and hash: `/welcome?from=qr`),
   * which single-page routers take as it is; absent when the location is on another origin.
   */
  path?: string
}

/**
 * Why something failed: `config` (markup or options), `network` (no response),
 * `response` (a malformed answer, or a redirect), `service` (5xx, 429 or another unexpected
 * status; retried), `rejected` (the service refused to create a challenge; not retried by itself),
 * `controller` (the integrator's controller refused or failed), `location` (it named a non-http(s) target),
 * `internal` (a bug in this script).
 */
export type ErrorReason = 'config' | 'network' | 'response' | 'service' | 'rejected' | 'controller' | 'location' | 'internal'

/** The widget tries again by itself, in `retryAfter` ms: the service did not answer, or not usefully. */
export interface RetryingError {
  reason: 'network' | 'response' | 'service'
  /** The HTTP status, or 0 when there was no answer. */
  status: number
  retryAfter: number
}

/** The widget does not try again by itself: it waits for the button, a new code, or a fix of the markup. */
export interface StoppedError {
  reason: ErrorReason
  status: number
  retryAfter?: never
}

/** `retryAfter` is there exactly when the widget will try again by itself. */
export type ErrorDetail = RetryingError | StoppedError

/** Dispatches a bubbling `service-auth:<name>` CustomEvent; returns false when a listener cancelled it. */
export const emit = <K extends EventName>(el: Element, name: K, detail: EventDetails[K], cancelable?: boolean): boolean =>
  el.dispatchEvent(new CustomEvent('service-auth:' + name, { bubbles: true, cancelable, detail }))

/** The widget's events by name, as listeners receive them. */
export type ServiceAuthEventMap = { [K in EventName as `service-auth:${K}`]: CustomEvent<EventDetails[K]> }

type Holds<T extends true> = T
/** Holds EVENT_NAMES and EventDetails to the same names: the type check fails if one gains a name the other lacks. */
export type EventNamesMatch = Holds<[keyof EventDetails] extends [EventName] ? ([EventName] extends [keyof EventDetails] ? true : false) : false>

// Typed wherever they can be heard: they bubble from the element through the document to the window.
declare global {
  interface ElementEventMap extends ServiceAuthEventMap {}
  interface GlobalEventHandlersEventMap extends ServiceAuthEventMap {}
}
