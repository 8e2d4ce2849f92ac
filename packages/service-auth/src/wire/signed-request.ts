// A signed server-side request on the wire (spec section 5), defined once: service-auth/server
// signs it, the mock verifies it, both from this type. Types only.

/** The claims of the HS256 JWT in a server-side request's Authorization header. */
export interface SignedRequestPayload {
  /** The API key: whose secret signed it. */
  iss: string
  /** The service's base URL. */
  aud: string
  /** Seconds since the epoch; `exp` a few seconds after `iat`. */
  iat: number
  nbf: number
  exp: number
  /** The request it signs: its method, its full URL, and the lowercase hex SHA-256 of its body's bytes. */
  method: string
  url: string
  bodyHash: string
}
