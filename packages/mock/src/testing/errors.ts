// The one error the test kit throws: its message says what went wrong and what to do about it.

/** A test kit call that could not do what it was asked, e.g. "no sign-in code on the page after 10 s". */
export class TestKitError extends Error {
  override name = 'TestKitError'
}
