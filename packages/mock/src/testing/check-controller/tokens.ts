// The tokens the check hands the controller: real ones, which a phone signed at the mock, and
// forgeries made from a real one's claims, each broken in one way. A forgery carries a real
// signed challenge, so a controller that takes it and confirms it at the mock really signs in:
// what it accepted shows in a session, not only in its answer.
import { randomBytes } from 'node:crypto'
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type JWTPayload } from 'jose'
import type { MockSide } from './mock-side.js'

/** A token a phone signed, and its claims (spec section 2: `jti`, `sub`, `otp`, besides the standard ones). */
export interface SignedToken {
  token: string
  claims: JWTPayload & { jti: string; sub: string; otp: string }
}

/** How long the mock's tokens live; an expired forgery keeps that lifetime, in the past. */
const TOKEN_LIFETIME_S = 120

export class Tokens {
  constructor(
    private readonly mock: MockSide,
    /** The API secret, decoded: the key the controller verifies with. */
    private readonly secret: Uint8Array,
  ) {}

  /** A new challenge of the key, signed by the identity's phone. */
  async signedBy(identifier: string): Promise<SignedToken> {
    const token = await this.mock.sign(await this.mock.createChallenge(), identifier)
    return { token, claims: decodeJwt(token) as SignedToken['claims'] }
  }

  /** The claims, signed HS256 with a secret that is not the key's. */
  otherSecret({ claims }: SignedToken): Promise<string> {
    return hs256(claims, new Uint8Array(randomBytes(32)))
  }

  /** The claims unsigned: `alg: none`, and no signature. */
  algNone({ claims }: SignedToken): string {
    return new UnsecuredJWT(claims).encode()
  }

  /**
   * The claims signed RS256 with a key pair of the check's own, whose public key the header
   * carries (`jwk`): only a controller that takes the algorithm and key from the token accepts it.
   */
  async rs256({ claims }: SignedToken): Promise<string> {
    const { publicKey, privateKey } = await generateKeyPair('RS256')
    const jwk = await exportJWK(publicKey)
    return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'JWT', jwk }).sign(privateKey)
  }

  /** The claims with their lifetime moved into the past, signed right. */
  expired({ claims }: SignedToken): Promise<string> {
    const now = Math.floor(Date.now() / 1000)
    return hs256({ ...claims, iat: now - 2 * TOKEN_LIFETIME_S, exp: now - TOKEN_LIFETIME_S }, this.secret)
  }

  /** The claims naming another identity in `sub`, signed right. */
  withSubject({ claims }: SignedToken, sub: string): Promise<string> {
    return hs256({ ...claims, sub }, this.secret)
  }
}

const hs256 = (claims: JWTPayload, secret: Uint8Array) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(secret)
