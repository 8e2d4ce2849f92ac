// service-auth/server: the integrator's half of spec section 4. Web standards only (fetch, Web
// Crypto, atob), so it runs on Node 20 or later, Deno, Bun and Cloudflare Workers alike.
export {
  createClient,
  type Client,
  type ClientOptions,
  type ConfigurationChanges,
  type EnrollInput,
  type IdentityChanges,
  type RequestOptions,
  type SessionReport,
} from './client.js'
export {
  createController,
  handleControllerRequest,
  handleFetchRequest,
  type Controller,
  type ControllerClient,
  type ControllerOptions,
  type ControllerRequest,
  type ControllerResponse,
  type SessionStarted,
} from './controller-handler.js'
export { PathSegmentError } from './path-segment.js'
// The embed's own limit, from wire/: a controller's answer over it fails the sign-in in the browser.
export { LARGEST_ANSWER } from '../wire/answer.js'
export type { RefusalReason } from './refusal.js'
export { ServiceError, ServiceUnreachableError, type FieldError } from './problem.js'
export type { Authentication, Configuration, Device, Enrollment, Identity, Session, SessionClient } from './resources.js'
export { AuthTokenError, verifyAuthToken, type AuthTokenClaims, type AuthTokenProblem, type VerifyOptions } from './verify.js'
