// The test keys as the README's table publishes them: their names, their one secret, who signs
// and when. Apart from the TestKeys that plugs them into the service (test-keys.ts), so that the
// test kit's published types carry these and nothing of the service's machinery.

/**
 * The mock's test keys, by what they do: `test-signs` is signed by the test identity's phone,
 * `test-expires` expires in 5 s, `test-unavailable` answers 503. Published in the README's table,
 * and exported by the test kit as they are here.
 */
export const TEST_KEYS = Object.freeze({ signs: 'test-signs', expires: 'test-expires', unavailable: 'test-unavailable' } as const)

/** The one secret of every test key (Base64 of "service-auth test keys: a public secret"): published, so it protects nothing. */
export const TEST_SECRET = 'c2VydmljZS1hdXRoIHRlc3Qga2V5czogYSBwdWJsaWMgc2VjcmV0'

/** Who signs `test-signs` codes unless the service is told otherwise. */
export const DEFAULT_TEST_IDENTITY = 'test@example.com'

/** The app the test keys share: an identity enrolled with one of them is known to all three. */
export const TEST_APP = 'test-keys'

/** How long after the first status poll `test-signs` signs: long enough to see the code, short enough not to wait on. */
export const SIGN_AFTER_MS = 1000
/** The lifetime of a `test-expires` challenge. */
export const EXPIRES_AFTER_MS = 5000
/** `test-unavailable`'s Retry-After, in seconds. */
export const UNAVAILABLE_RETRY_AFTER_S = 5

export interface TestKeyOptions {
  /** The identity whose test phone signs `test-signs` challenges; default test@example.com. */
  identity?: string
}
