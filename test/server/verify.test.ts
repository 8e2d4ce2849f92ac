// @vitest-environment node
import { randomBytes } from 'node:crypto'
import { SignJWT, UnsecuredJWT } from 'jose'
import { describe, expect, it } from 'vitest'
import { AuthTokenError, verifyAuthToken } from '../../src/server/index.ts'

const secret = randomBytes(32).toString('base64')
const otherSecret = randomBytes(32).toString('base64')
const now = Math.floor(Date.UTC(2030, 0, 1) / 1000)
const at = new Date(now * 1000)

function token(claims: Record<string, unknown> = {}, { key = secret, iat = now, exp = now + 60 }: { key?: string; iat?: number; exp?: number } = {}) {
  return new SignJWT({ jti: 'challenge-1', sub: 'ada@example.com', otp: '493021', ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setIssuer('https://api.example')
    .sign(Buffer.from(key, 'base64'))
}

const refusal = (promise: Promise<unknown>) => promise.then(() => 'accepted', (error: AuthTokenError) => [error.name, error.problem])

describe('verifyAuthToken', () => {
  it('returns the challenge id, identifier and one-time password of a good token', async () => {
    await expect(verifyAuthToken(await token(), { secret, now: at })).resolves.toEqual({ challengeId: 'challenge-1', identifier: 'ada@example.com', otp: '493021' })
  })

  it('adds the role and the session id when the token names them, as strings only', async () => {
    const claims = await verifyAuthToken(await token({ role: 'ROLE_ADMIN', sid: 'session-9' }), { secret, now: at })
    expect(claims).toEqual({ challengeId: 'challenge-1', identifier: 'ada@example.com', otp: '493021', role: 'ROLE_ADMIN', sessionId: 'session-9' })
    expect(await verifyAuthToken(await token({ role: 7, sid: { id: 1 } }), { secret, now: at })).toEqual({ challengeId: 'challenge-1', identifier: 'ada@example.com', otp: '493021' })
  })

  it('pins the issuer when asked', async () => {
    await expect(verifyAuthToken(await token(), { secret, now: at, issuer: 'https://api.example' })).resolves.toMatchObject({ challengeId: 'challenge-1' })
    expect(await refusal(verifyAuthToken(await token(), { secret, now: at, issuer: 'https://elsewhere.example' }))).toEqual(['AuthTokenError', 'claims'])
  })

  it('tells an expired token from a bad one', async () => {
    expect(await refusal(verifyAuthToken(await token({}, { exp: now - 30 }), { secret, now: at }))).toEqual(['AuthTokenError', 'expired'])
    expect(await refusal(verifyAuthToken(await token({}, { key: otherSecret }), { secret, now: at }))).toEqual(['AuthTokenError', 'signature'])
  })

  it('forgives a few seconds of clock skew on exp, nbf and iat, and no more', async () => {
    await expect(verifyAuthToken(await token({}, { exp: now - 3 }), { secret, now: at })).resolves.toBeTruthy()
    await expect(verifyAuthToken(await token({ nbf: now + 3 }), { secret, now: at })).resolves.toBeTruthy()
    await expect(verifyAuthToken(await token({}, { iat: now + 3 }), { secret, now: at })).resolves.toBeTruthy()
    expect(await refusal(verifyAuthToken(await token({ nbf: now + 30 }), { secret, now: at }))).toEqual(['AuthTokenError', 'not-yet-valid'])
    expect(await refusal(verifyAuthToken(await token({}, { iat: now + 30 }), { secret, now: at }))).toEqual(['AuthTokenError', 'not-yet-valid'])
    await expect(verifyAuthToken(await token({}, { exp: now - 30 }), { secret, now: at, leeway: 60 })).resolves.toBeTruthy()
  })

  it.each([
    ['no token', undefined],
    ['an empty token', ''],
    ['garbage', 'not.a.jwt'],
    ['a number', 42],
  ])('refuses %s as malformed', async (_, value) => {
    expect(await refusal(verifyAuthToken(value, { secret, now: at }))).toEqual(['AuthTokenError', 'malformed'])
  })

  it('refuses alg none and other algorithms', async () => {
    const unsigned = new UnsecuredJWT({ jti: 'c', sub: 's', otp: 'o' }).setIssuedAt(now).setExpirationTime(now + 60).encode()
    expect(await refusal(verifyAuthToken(unsigned, { secret, now: at }))).toEqual(['AuthTokenError', 'malformed'])
    const hs512 = await new SignJWT({ jti: 'c', sub: 's', otp: 'o' }).setProtectedHeader({ alg: 'HS512' }).setIssuedAt(now).setExpirationTime(now + 60).sign(Buffer.from(secret, 'base64'))
    expect(await refusal(verifyAuthToken(hs512, { secret, now: at }))).toEqual(['AuthTokenError', 'malformed'])
  })

  it.each([['jti'], ['sub'], ['otp']])('refuses a token without %s', async (claim) => {
    expect(await refusal(verifyAuthToken(await token({ [claim]: undefined }), { secret, now: at }))).toEqual(['AuthTokenError', 'claims'])
  })

  it('refuses claims of the wrong type', async () => {
    expect(await refusal(verifyAuthToken(await token({ otp: 493021 }), { secret, now: at }))).toEqual(['AuthTokenError', 'claims'])
  })

  it('keys HMAC with the Base64-decoded secret, not its text', async () => {
    const signedWithText = await new SignJWT({ jti: 'c', sub: 's', otp: 'o' }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(now).setExpirationTime(now + 60).sign(new TextEncoder().encode(secret))
    expect(await refusal(verifyAuthToken(signedWithText, { secret, now: at }))).toEqual(['AuthTokenError', 'signature'])
  })

  it('treats a missing secret as a programming error, not a bad token', async () => {
    await expect(verifyAuthToken(await token(), { secret: '', now: at })).rejects.toBeInstanceOf(TypeError)
  })
})
