// HS256 with a key shorter than its 32-byte hash is guessable offline from one token; the service
// issues 32 random bytes, so anything shorter is a placeholder ("changeme") or a truncated copy.
const MIN_SECRET_BYTES = 32

// Spec section 5 says only "Base64 text". The service issues the standard alphabet; the URL-safe
// one is taken too (it is what some secret stores hand back), but not a mix of both. Padding is
// optional, and when present it must be the right amount.
const STANDARD = /^[A-Za-z0-9+/]*$/
const URL_SAFE = /^[A-Za-z0-9_-]*$/

/**
 * The API secret as the bytes HS256 signs with: the service hands it out as Base64 text. Decoded
 * with atob, which every runtime has (Node, Deno, Bun, Workers), so nothing here needs Node's Buffer.
 * A TypeError says why a secret is refused: the integrator's configuration is wrong. It names the
 * option, `secret` in every part that takes one, so the integrator knows which line to fix.
 */
export function secretBytes(secret: string): Uint8Array {
  const value: unknown = secret
  if (value == null || (typeof value === 'string' && !value.trim())) {
    throw new TypeError('secret (the API secret) is missing: pass the Base64 text the service issued.')
  }
  if (typeof value !== 'string') {
    throw new TypeError(`secret (the API secret) must be the Base64 text the service issued, as a string; got ${kind(value)}.`)
  }
  const bytes = decodeBase64(secret.trim())
  if (!bytes) throw new TypeError('secret (the API secret) is not Base64 text (standard or URL-safe alphabet): pass it exactly as the service issued it.')
  if (bytes.length < MIN_SECRET_BYTES) {
    throw new TypeError(
      `secret (the API secret) decodes to ${bytes.length} byte${bytes.length === 1 ? '' : 's'}; it must be at least ${MIN_SECRET_BYTES}, as the service issues it. Is it a placeholder or cut short?`,
    )
  }
  return bytes
}

/**
 * What a secret of the wrong type is, as the message names it. Only its type: unlike createClient's
 * other options (its `shown()`), the value is never printed, since a number, an object or bytes
 * passed as the secret may hold the secret itself (String of Node's bytes is their text).
 */
function kind(value: unknown): string {
  if (Array.isArray(value)) return 'an array'
  // Bytes, most likely: a secret file read without an encoding. (No word here names Node's own
  // type for them: this file runs in every runtime, and the package test holds it to that.)
  if (ArrayBuffer.isView(value)) return "bytes (read the secret's file as utf8 text)"
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}

/** Standard or URL-safe Base64, padded or not; undefined for anything else. */
function decodeBase64(text: string): Uint8Array | undefined {
  const unpadded = text.replace(/={1,2}$/, '')
  const padded = unpadded !== text
  if (unpadded.length % 4 === 1 || (padded && text.length % 4 !== 0)) return undefined
  if (!STANDARD.test(unpadded) && !URL_SAFE.test(unpadded)) return undefined
  // atob takes Base64 without its padding (the forgiving decoding every runtime's atob does).
  return Uint8Array.from(atob(unpadded.replace(/-/g, '+').replace(/_/g, '/')), (char) => char.charCodeAt(0))
}
