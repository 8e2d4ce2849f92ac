// What logs (the mock's request log, an app's controller log) show in place of a secret: enough
// to tell two values apart, or to check one a test already holds, and never enough to use. Code
// like this is copied into integrators' apps; a log that handed out live tokens and session
// cookies would be copied with it.
import { createHash } from 'node:crypto'

/** `sha256:` and the first 12 hex digits of the value's SHA-256. */
export const fingerprint = (secret: string): string => 'sha256:' + createHash('sha256').update(secret).digest('hex').slice(0, 12)

/** `Bearer <token>` keeps its scheme, so a reader still sees which form the credential took. */
export function fingerprintCredential(value: string): string {
  const match = /^(\S+)\s+(\S.*)$/.exec(value)
  return match ? `${match[1]} ${fingerprint(match[2]!)}` : fingerprint(value)
}

/** `a=1; b=2` as `a=<fingerprint>; b=<fingerprint>`: the names stay readable, the values do not. */
export function fingerprintCookies(header: string): string {
  return header
    .split(';')
    .map((pair) => pair.trim())
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=')
      return at < 0 ? fingerprint(pair) : `${pair.slice(0, at)}=${fingerprint(pair.slice(at + 1))}`
    })
    .join('; ')
}
