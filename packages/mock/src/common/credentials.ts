// The API key and secret pair the service hands to a client (spec section 5).
import { randomBytes } from 'node:crypto'

export interface Credentials {
  apiKey: string
  /** Base64 text of 32 random bytes. */
  apiSecret: string
}

/**
 * What the service issues, and so the least a secret may decode to: service-auth/server refuses
 * a shorter one (HS256 with a key shorter than its 32-byte hash is guessable offline from one
 * token), so a mock that took one could never be used by the controller it is there to test.
 */
export const SECRET_BYTES = 32

/** How to make a secret, as the refusal of a short one says it. */
const MAKE_ONE = `Make one with \`openssl rand -base64 ${SECRET_BYTES}\` or \`node -e "console.log(require('crypto').randomBytes(${SECRET_BYTES}).toString('base64'))"\`.`

export function generateCredentials(): Credentials {
  return {
    apiKey: 'mock-' + randomBytes(9).toString('base64url'),
    apiSecret: randomBytes(SECRET_BYTES).toString('base64'),
  }
}

/**
 * The secret's bytes, which is what HS256 signs with (spec: "the Base64 decoded binary value"),
 * at least SECRET_BYTES of them. Node's decoder skips bad characters silently, so the text is
 * checked first: a mistyped secret should fail loudly at start-up, not as a signature mismatch
 * later. The messages never show the secret; each caller puts the name of its option in front.
 */
export function decodeSecret(base64: string): Uint8Array {
  // Its type only, never its value: a number or a Buffer given as the secret may be the secret.
  const kind = Array.isArray(base64) ? 'an array' : base64 === null ? 'null' : typeof base64 == 'object' ? 'an object' : `a ${typeof base64}`
  if (typeof base64 !== 'string') throw new Error(`The API secret is not Base64 text: it must be a string, not ${kind}.`)
  const text = base64.trim()
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.replace(/=+$/, '').length % 4 === 1) {
    throw new Error('The API secret is not Base64 text.')
  }
  const bytes = new Uint8Array(Buffer.from(text, 'base64'))
  if (bytes.length < SECRET_BYTES) {
    // In service-auth/server's words (its secret.ts), and how to make a good one.
    throw new Error(
      `The API secret decodes to ${bytes.length} byte${bytes.length === 1 ? '' : 's'}; it must be at least ${SECRET_BYTES}, as the service issues it. Is it a placeholder or cut short? ${MAKE_ONE}`,
    )
  }
  return bytes
}
