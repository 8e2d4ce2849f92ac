// The API key and secret pair the service hands to a client (spec section 5).
import { randomBytes } from 'node:crypto'

export interface Credentials {
  apiKey: string
  /** Base64 text of 32 random bytes. */
  apiSecret: string
}

export function generateCredentials(): Credentials {
  return {
    apiKey: 'mock-' + randomBytes(9).toString('base64url'),
    apiSecret: randomBytes(32).toString('base64'),
  }
}

/**
 * The secret's bytes, which is what HS256 signs with (spec: "the Base64 decoded binary value").
 * Node's decoder skips bad characters silently, so the text is checked first: a mistyped
 * secret should fail loudly at start-up, not as a signature mismatch later.
 */
export function decodeSecret(base64: string): Uint8Array {
  // Its type only, never its value: a number or a Buffer given as the secret may be the secret.
  const kind = Array.isArray(base64) ? 'an array' : base64 === null ? 'null' : typeof base64 == 'object' ? 'an object' : `a ${typeof base64}`
  if (typeof base64 !== 'string') throw new Error(`The API secret is not Base64 text: it must be a string, not ${kind}.`)
  const text = base64.trim()
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(text) || text.replace(/=+$/, '').length % 4 === 1) {
    throw new Error('The API secret is not Base64 text.')
  }
  return new Uint8Array(Buffer.from(text, 'base64'))
}
