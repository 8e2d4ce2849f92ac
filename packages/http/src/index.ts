// The repository's own HTTP helpers, shared by the mock service and the demo app: problem JSON,
// routing, bodies, answers, listening on loopback, the Host check, log fingerprints. Private: the
// mock's build bundles what it uses, so nothing published depends on this package.
export { AllowedHosts, refuseForeignHost } from './allowed-hosts.js'
export { BoundedList } from './bounded-list.js'
export { answerClientErrorsWithProblems } from './client-errors.js'
export { ErrorCode, type ErrorKind } from './error-codes.js'
export { FieldValidator } from './field-validator.js'
export { fingerprint, fingerprintCookies, fingerprintCredential } from './fingerprint.js'
export { closeServer, listen } from './listen.js'
export { fieldProblem, HttpProblem, problemBody, problemInstance, sendProblem, type FieldError, type FieldErrors } from './problem.js'
export { BODY_LIMIT, ClientGone, isJsonContentType, isJsonObject, parseForm, parseJsonArray, parseJsonObject, readBody, readBodyBytes } from './read-body.js'
export { redirect, sendBytes, sendEmpty, sendJson } from './respond.js'
export { handlerFor, matchRoute, requestPath, requestUrl, withOneLeadingSlash, type Route, type RouteMatch } from './router.js'
export { serve, type ServeOptions } from './serve.js'
export { withHost } from './with-host.js'
