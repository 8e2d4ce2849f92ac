/** The API secret as the bytes HS256 signs with: the service hands it out as Base64 text. */
export function secretBytes(secret: string): Uint8Array {
  const bytes = typeof secret === 'string' ? Buffer.from(secret.trim(), 'base64') : Buffer.alloc(0)
  if (!bytes.length) throw new TypeError('The API secret must be the Base64 text the service issued.')
  return new Uint8Array(bytes)
}
