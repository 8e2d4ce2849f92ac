// The errors the test kit throws: each message says what went wrong and what to do about it.
import type { ShownCode } from './shown-code.js'

/** A test kit call that could not do what it was asked, e.g. "no sign-in code on the page after 10 s". */
export class TestKitError extends Error {
  override name = 'TestKitError'
}

/**
 * The phone signed the code, but the page did not sign in with it: the widget reported a
 * `service-auth:error` once it had the token, because the page's controller refused it (a
 * wrong secret, say: 401) or could not be reached. Thrown by `signShownCode`, at once.
 */
export class SignInRefusedError extends TestKitError {
  override name = 'SignInRefusedError'

  constructor(
    message: string,
    /** The code that was signed, as signShownCode would have resolved to. */
    readonly code: ShownCode,
    /** The error event's `detail.reason`: `controller`, `network` (the controller could not be reached), `location`, ... */
    readonly reason: string,
    /** The error event's `detail.status`: the controller's HTTP status, 0 when there was no answer. */
    readonly status: number,
  ) {
    super(message)
  }
}

/**
 * `checkController` could not judge the controller: the controller or the mock cannot be
 * reached, the mock has no knobs, the key or secret is wrong, or `signedIn` answers a browser
 * that is not signed in. The message says which. (The command exits 2 with it.)
 */
export class ControllerCheckError extends TestKitError {
  override name = 'ControllerCheckError'
}

/**
 * A knob call of `KnobClient` that did not do what it was asked: the mock refused it (`status`,
 * and the problem's `detail`), has no knobs, or cannot be reached (`status` undefined).
 */
export class KnobError extends TestKitError {
  override name = 'KnobError'

  constructor(
    message: string,
    /** The mock's answer, when it answered. */
    readonly status?: number,
    /** The problem JSON's detail (or the body as it is), when it answered. */
    readonly detail?: string,
    /** What was asked, when the mock refused it; undefined when there was no mock to ask, or no knobs. */
    readonly what?: string,
  ) {
    super(message)
  }
}
