// What a test can do to the mock through the kit, as types: the README's "Testing your sign-in"
// describes the same. Every control acts through one API key, and touches only that key's
// requests and challenges, so tests that share one mock, each with a key of its own, never
// touch each other's (see connectMockService's `isolate`).
import type { RequestKind } from '../knobs/fault-rules.js'
import type { HeldRequest } from '../knobs/holds.js'
import type { PageLike } from './page.js'
import type { ShownCode, ShownCodeOptions } from './shown-code.js'

/** Which of the key's requests a rule is for: `any` (the default) is every /v1/ request of the key, your controller's included. */
export type RequestMatch = RequestKind | 'any'

/** The next requests to fail, as the /__knobs/fail knob queues them. */
export interface Failure {
  /** The status to answer (with problem JSON, or `body`); ignored with `network`. */
  status?: number
  /** How many matching requests fail; default 1. */
  count?: number
  /** Which requests: default `any`. */
  match?: RequestMatch
  /** A Retry-After header, in seconds. */
  retryAfter?: number
  /** A raw body instead of problem JSON, and its Content-Type. */
  body?: string
  contentType?: string
  /** A Location header: with a 3xx status, a redirect there. */
  location?: string
  /** Drop the connection without an answer. */
  network?: boolean
}

/** The next requests to answer late, as the /__knobs/delay knob queues them. */
export interface Delay {
  /** How long each waits before it is handled, in ms. */
  ms: number
  /** How many matching requests wait; default 1. */
  count?: number
  match?: RequestMatch
}

/** The next requests to hold until `release()`, as the /__knobs/hold knob queues them. */
export interface Hold {
  /** How many matching requests wait; default 1. */
  count?: number
  match?: RequestMatch
}

/** A mock service to steer from a test, through one of its API keys. */
export interface MockServiceControls {
  /** The service's base URL: the page's `data-service-api` and your controller's SERVICE_URL. */
  readonly url: string
  /** The API key the controls act through, any origin allowed: the page's `data-service-key`. */
  readonly key: string
  /** Its secret, Base64, for your controller. */
  readonly secret: string
  /** Enrols the identity with `key` and provisions a phone for it, as the phone app would by scanning the enrollment code. */
  enrolPhone(identity: string): Promise<void>
  /**
   * The identity's phone signs the code the page shows (waiting for one within `timeout`), and
   * the widget hands it to the page's controller; resolves once the page signs in with it, and
   * rejects with a SignInRefusedError, at once, when the controller refuses it.
   */
  signShownCode(page: PageLike, identity: string, options?: ShownCodeOptions): Promise<ShownCode>
  /** The code the page shows expires now, as if its time had run out. */
  expireShownCode(page: PageLike, options?: ShownCodeOptions): Promise<ShownCode>
  /** The key's next matching requests fail: `failNext({ status: 503, count: 2, match: 'create' })`. */
  failNext(failure: Failure): Promise<void>
  /** The key's next matching requests wait `ms` first: `delayNext({ ms: 2000, match: 'authenticate' })`. */
  delayNext(delay: Delay): Promise<void>
  /**
   * The key's next matching requests wait at the service until `release()`, however long the
   * test takes meanwhile: `holdNext({ match: 'authenticate' })`. A delay is a window a busy
   * machine can miss; a hold is not.
   */
  holdNext(hold?: Hold): Promise<void>
  /** The key's requests waiting for `release()` now, oldest first. */
  held(): Promise<HeldRequest[]>
  /** Lets the key's held requests go on; resolves to how many went. */
  release(): Promise<number>
}

/** A mock service this process started, or a key of its own on a shared one (`isolate: true`). */
export interface MockService extends MockServiceControls {
  /** Stops a mock this process started (held polls are dropped); frees an isolated connection's key, and all made with it. */
  close(): Promise<void>
}
