// `@service-auth/mock`: the mock service, a few steps for an integrator's own tests of their
// sign-in, and the check of their controller, in Node (Playwright, or any runner). Not for browsers: nothing here is reachable
// from the package's main entry.
export {
  connectMockService,
  startMockService,
  type ConnectMockServiceOptions,
  type IsolatedMockServiceOptions,
  type StartMockServiceOptions,
} from './testing/mock-service.js'
export type { Delay, Failure, Hold, MockService, MockServiceControls, RequestMatch } from './testing/controls.js'
export type { HeldRequest } from './knobs/holds.js'
export { readShownCode, type ShownCode, type ShownCodeOptions } from './testing/shown-code.js'
export type { LocatorLike, PageLike } from './testing/page.js'
export { ControllerCheckError, SignInRefusedError, TestKitError } from './testing/errors.js'
export { checkController, type CheckControllerOptions } from './testing/check-controller/check-controller.js'
export type { ControllerCheck, ControllerCheckReport } from './testing/check-controller/cases.js'
export type { RequestKind } from './knobs/fault-rules.js'
export { TEST_KEYS, TEST_SECRET } from './service/test-keys/published-keys.js'
