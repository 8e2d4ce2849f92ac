// service-auth/server: the integrator's half of spec section 4, for Node 20 or later.
export { createClient, type Client, type ClientOptions, type ConfigurationChanges, type EnrollInput, type IdentityChanges, type SessionReport } from './client'
export { handleControllerRequest, type ControllerOptions, type ControllerRequest, type ControllerResponse } from './controller'
export { ServiceError, ServiceUnreachableError, type FieldError } from './problem'
export type { Authentication, Configuration, Device, Enrollment, Identity, Session, SessionClient } from './resources'
export { AuthTokenError, verifyAuthToken, type AuthTokenClaims, type AuthTokenProblem, type VerifyOptions } from './verify'
