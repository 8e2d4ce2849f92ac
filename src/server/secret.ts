/**
 * The API secret as the bytes HS256 signs with: the service hands it out as Base64 text. Decoded
 * with atob, which every runtime has (Node, Deno, Bun, Workers), so nothing here needs Node's Buffer.
 */
export function secretBytes(secret: string): Uint8Array {
  const bytes = typeof secret === 'string' ? decodeBase64(secret) : undefined
  if (!bytes?.length) throw new TypeError('The API secret must be the Base64 text the service issued.')
  return bytes
}

/** Standard or URL-safe Base64, padded or not; undefined for anything else. */
function decodeBase64(text: string): Uint8Array | undefined {
  const standard = text.trim().replace(/-/g, '+').replace(/_/g, '/')
  try {
    return Uint8Array.from(atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '=')), (char) => char.charCodeAt(0))
  } catch {
    return undefined
  }
}
