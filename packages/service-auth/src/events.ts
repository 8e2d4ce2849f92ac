export interface EventDetails {
  ready: { challengeId: string; expiresAt: string }
  signed: { challengeId: string }
  /**
   * `location` is where the browser goes next, absolute; `path` is the same place as a path on this
   * origin (pathname, search and hash) for a single-page app's router, absent for another origin.
   * Both are absent when the page reloads instead.
   */
  success: { location?: string; path?: string }
  expired: { challengeId: string }
  /**
   * `retryAfter` (ms, the service's Retry-After, 0 without one) is present exactly when the widget
   * will retry by itself; absent when it waits for the person or the markup is at fault.
   */
  error: { reason: ErrorReason; status: number; retryAfter?: number }
}

/**
 * Why something failed: `config` (markup or options), `network` (no response),
 * `response` (a malformed answer, or one over 256 KB), `service` (5xx, 429 or another unexpected
 * status; retried), `rejected` (the service refused to create a challenge; not retried by itself),
 * `controller` (the integrator's controller refused or failed), `location` (it named a non-http(s) target),
 * `image` (the QR image did not load, twice), `internal` (a bug in this script).
 */
export type ErrorReason = 'config' | 'network' | 'response' | 'service' | 'rejected' | 'controller' | 'location' | 'image' | 'internal'

/**
 * The widget's events, each dispatched as `service-auth:<name>` in this order of a sign-in's
 * life; the one list the embed's types, the tests and the demo's event log share.
 */
export const EVENT_NAMES = ['ready', 'signed', 'success', 'expired', 'error'] as const satisfies readonly (keyof EventDetails)[]

/** Dispatches a bubbling `service-auth:<name>` CustomEvent; returns false when a listener cancelled it. */
export const emit = <K extends keyof EventDetails>(el: Element, name: K, detail: EventDetails[K], cancelable?: boolean): boolean =>
  el.dispatchEvent(new CustomEvent('service-auth:' + name, { bubbles: true, cancelable, detail }))

/** The widget's events by name, as listeners receive them. */
export type ServiceAuthEventMap = { [K in keyof EventDetails as `service-auth:${K}`]: CustomEvent<EventDetails[K]> }

// Typed wherever they can be heard: they bubble from the element through the document to the window.
declare global {
  interface ElementEventMap extends ServiceAuthEventMap {}
  interface GlobalEventHandlersEventMap extends ServiceAuthEventMap {}
}
