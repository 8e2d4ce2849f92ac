// The errors the test kit throws: each message says what went wrong and what to do about it.
import type { FieldError } from 'service-auth/server'
import { describeProblem } from './problem-detail.js'
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
 * the problem's `detail`, and on a 400 the field `errors`, which the message names too), has no
 * knobs, or cannot be reached (`status` undefined).
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
    /** The problem's field errors, one list per field it refused (`{status: [{code, message}]}`), as service-auth/server's ServiceError has them; empty when there are none. */
    readonly errors: Record<string, FieldError[]> = {},
  ) {
    super(message)
  }

  /**
   * The mock's refusal of `what`, said so that it diagnoses alone: "queueing the failure: the
   * mock service answered 400: The submitted data is invalid. match: The value you selected is
   * not a valid choice. …", each field the mock refused with its message.
   */
  static refusal({ what, status, detail, errors }: { what: string; status: number; detail: string; errors: Record<string, FieldError[]> }): KnobError {
    // `new this`, not `new KnobError`: a class that names itself inside is renamed _KnobError by
    // the bundle, and Node prints an error by its constructor's name ("_KnobError: …" in every
    // failed test's output). esbuild's keepNames would undo that, but it puts a __name() helper
    // in every function, and those a test hands to page.evaluate() then fail in the browser.
    return new this(`${what}: the mock service answered ${status}: ${describeProblem({ detail, errors })}`, status, detail, what, errors)
  }
}
