// service-auth/server: the integrator's half of spec section 4, for Node 20 or later.
export { createClient, type Client, type ClientOptions, type Device, type EnrollInput, type Enrollment, type Identity, type IdentityChanges } from './client'
export { handleControllerRequest, type ControllerOptions, type ControllerRequest, type ControllerResponse } from './controller'
export { ServiceError, ServiceUnreachableError, type FieldError } from './problem'
export { AuthTokenError, verifyAuthToken, type AuthTokenClaims, type AuthTokenProblem, type VerifyOptions } from './verify'
