// `@service-auth/mock`: the mock service and a few steps for an integrator's own tests of their
// sign-in, in Node (Playwright, or any runner). Not for browsers: nothing here is reachable
// from the package's main entry.
import { TEST_SECRET as MOCK_TEST_SECRET } from './service/test-keys/test-keys.js'

export { connectMockService, startMockService, type Failure, type MockService, type MockServiceControls, type RequestKind, type StartMockServiceOptions } from './testing/mock-service.js'
export { readShownCode, type ShownCode, type ShownCodeOptions } from './testing/shown-code.js'
export type { LocatorLike, PageLike } from './testing/page.js'
export { TestKitError } from './testing/errors.js'

/** The mock's test keys: `test-signs` is signed by the test identity's phone, `test-expires` expires in 5 s, `test-unavailable` answers 503. */
export const TEST_KEYS = { signs: 'test-signs', expires: 'test-expires', unavailable: 'test-unavailable' } as const

/** The published secret of every test key (Base64): it protects nothing, and only the mock knows it. */
export const TEST_SECRET: string = MOCK_TEST_SECRET
