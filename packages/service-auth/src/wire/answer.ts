// The size limit on an answer the embed reads, defined once: the embed's http.ts holds every
// answer to it (the service's and the controller's), service-auth/server exports it, and the
// mock's controller check, which imports it by the package's name, judges a controller's answer by
// it. A number, which the bundles write in where it is used: the browser pays nothing for its
// being here (the IIFE is byte for byte what it was with the number in http.ts).

/**
 * The most bytes of an answer the embed reads: one whose Content-Length says more, or whose JSON
 * body goes on past it, fails as `response` whatever its status, and the person is not signed in.
 */
export const LARGEST_ANSWER = 256 * 1024
