// @vitest-environment node
import { createHmac, randomBytes } from 'node:crypto'
import { exportSPKI, generateKeyPair, SignJWT, UnsecuredJWT } from 'jose'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type AuthTokenError, verifyAuthToken } from '../../src/server/index.js'

const secret = randomBytes(32).toString('base64')
const otherSecret = randomBytes(32).toString('base64')
const now = Math.floor(Date.UTC(2030, 0, 1) / 1000)
const at = new Date(now * 1000)

function token(claims: Record<string, unknown> = {}, { key = secret, iat = now, exp = now + 60 }: { key?: string; iat?: number; exp?: number } = {}) {
  return new SignJWT({ jti: 'challenge-1', sub: 'ada@example.com', otp: '493021', iss: 'https://api.example', ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(Buffer.from(key, 'base64'))
}

/** A token signed over this exact payload text, for what SignJWT will not write (such as 1e400, which JSON reads as Infinity). */
function rawToken(payload: string, key = secret, header: object = { alg: 'HS256', typ: 'JWT' }) {
  const signingInput = Buffer.from(JSON.stringify(header)).toString('base64url') + '.' + Buffer.from(payload).toString('base64url')
  return signingInput + '.' + createHmac('sha256', Buffer.from(key, 'base64')).update(signingInput).digest('base64url')
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (error: AuthTokenError) => [error.name, error.problem],
  )

describe('verifyAuthToken', () => {
  it('returns the challenge id, identifier and one-time password of a good token', async () => {
    await expect(verifyAuthToken(await token(), { secret, now: at })).resolves.toEqual({
      challengeId: 'challenge-1',
      identifier: 'ada@example.com',
      otp: '493021',
    })
  })

  it('adds the role and the session id when the token names them, as strings only', async () => {
    const claims = await verifyAuthToken(await token({ role: 'ROLE_ADMIN', sid: 'session-9' }), { secret, now: at })
    expect(claims).toEqual({ challengeId: 'challenge-1', identifier: 'ada@example.com', otp: '493021', role: 'ROLE_ADMIN', sessionId: 'session-9' })
    expect(await verifyAuthToken(await token({ role: 7, sid: { id: 1 } }), { secret, now: at })).toEqual({
      challengeId: 'challenge-1',
      identifier: 'ada@example.com',
      otp: '493021',
    })
  })

  it('pins the issuer when asked, a trailing slash aside', async () => {
    await expect(verifyAuthToken(await token(), { secret, now: at, issuer: 'https://api.example' })).resolves.toMatchObject({ challengeId: 'challenge-1' })
    await expect(verifyAuthToken(await token(), { secret, now: at, issuer: 'https://api.example//' })).resolves.toMatchObject({ challengeId: 'challenge-1' })
    await expect(verifyAuthToken(await token({ iss: 'https://api.example/' }), { secret, now: at, issuer: 'https://api.example' })).resolves.toBeTruthy()
    const error = await verifyAuthToken(await token(), { secret, now: at, issuer: 'https://elsewhere.example' }).catch((error) => error)
    expect(error).toMatchObject({
      name: 'AuthTokenError',
      problem: 'issuer',
      message: 'The token was issued by "https://api.example", not by the service at "https://elsewhere.example".',
    })
  })

  it('takes a token without iss or aud (the spec names neither), and refuses one whose iss or aud names another', async () => {
    const bare = await token({ iss: undefined })
    const pinned = { secret, now: at, issuer: 'https://api.example', audience: 'pk_live' }
    await expect(verifyAuthToken(bare, pinned)).resolves.toMatchObject({ challengeId: 'challenge-1' })
    await expect(verifyAuthToken(await token({ aud: 'pk_live' }), pinned)).resolves.toBeTruthy()
    const error = await verifyAuthToken(await token({ aud: 'pk_other' }), pinned).catch((error) => error)
    expect(error).toMatchObject({ name: 'AuthTokenError', problem: 'audience', message: 'The token is for the API key "pk_other", not "pk_live".' })
    // Without the options, nothing is pinned.
    await expect(verifyAuthToken(await token({ aud: 'pk_other', iss: 'https://elsewhere.example' }), { secret, now: at })).resolves.toBeTruthy()
  })

  it('takes an aud that is a list naming the key, as RFC 7519 allows', async () => {
    await expect(verifyAuthToken(await token({ aud: ['pk_other', 'pk_live'] }), { secret, now: at, audience: 'pk_live' })).resolves.toBeTruthy()
  })

  it.each([
    ['an aud list without the key', { aud: ['pk_other'] }, 'audience'],
    ['an empty aud list', { aud: [] }, 'audience'],
    ['an aud of null', { aud: null }, 'audience'],
    ['an aud that is a number', { aud: 7 }, 'audience'],
    ['an aud that is an object naming the key', { aud: { pk_live: true } }, 'audience'],
    ['an aud that differs in case', { aud: 'PK_LIVE' }, 'audience'],
    ['an aud with the key and a space', { aud: 'pk_live ' }, 'audience'],
    ['an iss of null', { iss: null }, 'issuer'],
    ['an iss that is a list naming the service', { iss: ['https://api.example'] }, 'issuer'],
    ['an iss that is a number', { iss: 443 }, 'issuer'],
    ['an iss on another host that starts the same', { iss: 'https://api.example.evil' }, 'issuer'],
    ['an iss with a path', { iss: 'https://api.example/v1' }, 'issuer'],
    ['an iss over http', { iss: 'http://api.example' }, 'issuer'],
  ])('refuses %s', async (_, claims, problem) => {
    const pinned = { secret, now: at, issuer: 'https://api.example', audience: 'pk_live' }
    expect(await refusal(verifyAuthToken(await token(claims), pinned))).toEqual(['AuthTokenError', problem])
  })

  it("keeps the token's odd aud or iss to one short line of JSON in the message", async () => {
    const error = await verifyAuthToken(await token({ aud: `pk\n${'x'.repeat(500)}` }), { secret, now: at, audience: 'pk_live' }).catch((error) => error)
    expect(error.message).not.toMatch(/\n/)
    expect(error.message).toBe(`The token is for the API key ${`"pk\\n${'x'.repeat(500)}`.slice(0, 100)}, not "pk_live".`)
  })

  it.each([
    ['audience', ''],
    ['audience', 7],
    ['issuer', ''],
    ['issuer', null],
  ])('throws a TypeError for a %s of %o', async (name, value) => {
    await expect(verifyAuthToken(await token(), { secret, now: at, [name]: value })).rejects.toThrow(
      new TypeError(`${name} must be a string that is not empty, or left out.`),
    )
  })

  it.each([
    ['an invalid Date', new Date('not a date')],
    ['a number', now * 1000],
    ['a string', '2030-01-01'],
  ])('throws a TypeError for a now that is %s: a bad option, not a malformed token', async (_, value) => {
    await expect(verifyAuthToken(await token(), { secret, now: value as Date })).rejects.toThrow(new TypeError('now must be a valid Date, or left out.'))
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
    ['no token', undefined, 'There is no token.'],
    ['an empty token', '', 'There is no token.'],
    ['a number', 42, 'There is no token.'],
    ['garbage', 'not.a.jwt', 'The token is not an HS256 JWT.'],
  ])('refuses %s as malformed', async (_, value, message) => {
    const error = await verifyAuthToken(value, { secret, now: at }).catch((error) => error)
    expect(error).toMatchObject({ name: 'AuthTokenError', problem: 'malformed', message })
  })

  it("keeps jose's error as the cause, and says which claim is wrong", async () => {
    const signature = await verifyAuthToken(await token({}, { key: otherSecret }), { secret, now: at }).catch((error) => error)
    expect(signature).toMatchObject({ problem: 'signature', message: 'The token is not signed with this secret.' })
    expect(signature.cause).toMatchObject({ code: 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' })
    const missing = await verifyAuthToken(await token({ jti: undefined }), { secret, now: at }).catch((error) => error)
    expect(missing).toMatchObject({ problem: 'claims', message: `The token's jti claim is wrong: missing required "jti" claim` })
    expect(missing.cause).toMatchObject({ code: 'ERR_JWT_CLAIM_VALIDATION_FAILED', claim: 'jti' })
    const empty = await verifyAuthToken(await token({ otp: '' }), { secret, now: at }).catch((error) => error)
    expect(empty).toMatchObject({ problem: 'claims', message: 'The token lacks a jti, sub or otp string.' })
  })

  it('takes a token issued exactly leeway seconds ahead, and says a later one was issued in the future', async () => {
    await expect(verifyAuthToken(await token({}, { iat: now + 5 }), { secret, now: at })).resolves.toBeTruthy()
    const error = await verifyAuthToken(await token({}, { iat: now + 6 }), { secret, now: at }).catch((error) => error)
    expect(error).toMatchObject({ problem: 'not-yet-valid', message: 'The token was issued in the future.' })
  })

  it('takes a leeway and a maxAge of 0', async () => {
    await expect(verifyAuthToken(await token({}, { iat: now }), { secret, now: at, leeway: 0, maxAge: 0 })).resolves.toBeTruthy()
  })

  it.each([
    ['a list', '[]'],
    ['null', 'null'],
    ['a string', '"ada@example.com"'],
    ['not JSON', '{"sub":'],
  ])('refuses a well-signed token whose payload is %s as malformed', async (_, payload) => {
    expect(await refusal(verifyAuthToken(rawToken(payload), { secret, now: at }))).toEqual(['AuthTokenError', 'malformed'])
  })

  it('refuses alg none and other algorithms', async () => {
    const unsigned = new UnsecuredJWT({ jti: 'c', sub: 's', otp: 'o' })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .encode()
    expect(await refusal(verifyAuthToken(unsigned, { secret, now: at }))).toEqual(['AuthTokenError', 'malformed'])
    const hs512 = await new SignJWT({ jti: 'c', sub: 's', otp: 'o' })
      .setProtectedHeader({ alg: 'HS512' })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(Buffer.from(secret, 'base64'))
    expect(await refusal(verifyAuthToken(hs512, { secret, now: at }))).toEqual(['AuthTokenError', 'malformed'])
  })

  it('refuses HS/RS confusion: an RS256 token, and an HS256 one keyed with an RSA public key', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true })
    const claims = { jti: 'c', sub: 's', otp: 'o' }
    const rs256 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(privateKey)
    expect(await refusal(verifyAuthToken(rs256, { secret, now: at }))).toEqual(['AuthTokenError', 'malformed'])
    const publicPem = new TextEncoder().encode(await exportSPKI(publicKey))
    const confused = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(publicPem)
    expect(await refusal(verifyAuthToken(confused, { secret, now: at }))).toEqual(['AuthTokenError', 'signature'])
  })

  it("ignores a key the token's header offers (jwk, kid): only the secret verifies", async () => {
    const attacker = randomBytes(32)
    const offered = await new SignJWT({ jti: 'c', sub: 's', otp: 'o' })
      .setProtectedHeader({ alg: 'HS256', kid: 'attacker', jwk: { kty: 'oct', k: attacker.toString('base64url') } as never })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(attacker)
    expect(await refusal(verifyAuthToken(offered, { secret, now: at }))).toEqual(['AuthTokenError', 'signature'])
  })

  it('refuses a header with a crit extension it does not know, even well signed', async () => {
    const payload = `{"jti":"c","sub":"s","otp":"o","iat":${now},"exp":${now + 60}}`
    const critical = rawToken(payload, secret, { alg: 'HS256', crit: ['exp-bound'], 'exp-bound': true })
    expect(await refusal(verifyAuthToken(critical, { secret, now: at }))).toEqual(['AuthTokenError', 'malformed'])
  })

  it.each([['jti'], ['sub'], ['otp']])('refuses a token without %s', async (claim) => {
    expect(await refusal(verifyAuthToken(await token({ [claim]: undefined }), { secret, now: at }))).toEqual(['AuthTokenError', 'claims'])
  })

  it('refuses claims of the wrong type', async () => {
    expect(await refusal(verifyAuthToken(await token({ otp: 493021 }), { secret, now: at }))).toEqual(['AuthTokenError', 'claims'])
    expect(await refusal(verifyAuthToken(await token({ otp: '' }), { secret, now: at }))).toEqual(['AuthTokenError', 'claims'])
  })

  it.each([
    ['a lone high surrogate in sub', { sub: 'ada\uD800@example.com' }],
    ['a lone low surrogate in sub', { sub: '\uDC00' }],
    ['a lone surrogate in jti', { jti: 'challenge-\uD83D' }],
    ['a lone surrogate in otp', { otp: '49\uDFFF3021' }],
    ['a lone surrogate in role', { role: 'ROLE_\uD800' }],
    ['a lone surrogate in sid', { sid: 'session-\uDBFF' }],
  ])('refuses %s: such a string makes encodeURIComponent throw', async (_, claims) => {
    const error = await verifyAuthToken(await token(claims), { secret, now: at }).catch((error) => error)
    expect(error).toMatchObject({ name: 'AuthTokenError', problem: 'claims', message: "The token's jti, sub, otp, role or sid is not well-formed Unicode." })
  })

  it('takes surrogate pairs, which are whole characters', async () => {
    await expect(verifyAuthToken(await token({ sub: '\u{1F600}@example.com' }), { secret, now: at })).resolves.toMatchObject({
      identifier: '\u{1F600}@example.com',
    })
  })

  describe('a token over 8 KiB', () => {
    afterEach(() => vi.restoreAllMocks())

    it('is refused as malformed before any crypto, even when well signed', async () => {
      const big = await token({ padding: 'x'.repeat(8 * 1024) })
      const subtle = ['importKey', 'sign', 'verify'].map((method) => vi.spyOn(crypto.subtle, method as 'sign'))
      const error = await verifyAuthToken(big, { secret, now: at }).catch((error) => error)
      expect(error).toMatchObject({ name: 'AuthTokenError', problem: 'malformed', message: 'The token is longer than 8 KiB.' })
      for (const spy of subtle) expect(spy).not.toHaveBeenCalled()
    })

    it('but one of 8 KiB exactly is verified', async () => {
      const base = await token({ padding: '' })
      // Each 3 padding characters add 4 to the payload's base64url.
      const padded = await token({ padding: 'x'.repeat(Math.floor(((8 * 1024 - base.length) * 3) / 4)) })
      expect(padded.length).toBeLessThanOrEqual(8 * 1024)
      expect(padded.length).toBeGreaterThan(8 * 1024 - 4)
      await expect(verifyAuthToken(padded, { secret, now: at })).resolves.toMatchObject({ challengeId: 'challenge-1' })
    })
  })

  it('keys HMAC with the Base64-decoded secret, not its text', async () => {
    const signedWithText = await new SignJWT({ jti: 'c', sub: 's', otp: 'o' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode(secret))
    expect(await refusal(verifyAuthToken(signedWithText, { secret, now: at }))).toEqual(['AuthTokenError', 'signature'])
  })

  it('treats a missing secret as a programming error, not a bad token', async () => {
    await expect(verifyAuthToken(await token(), { secret: '', now: at })).rejects.toBeInstanceOf(TypeError)
  })

  it('refuses a token older than maxAge from its iat, whatever its exp says', async () => {
    const fiveMinutes = await token({}, { iat: now, exp: now + 300 })
    const at = (seconds: number) => ({ secret, maxAge: 60, now: new Date((now + seconds) * 1000) })
    await expect(verifyAuthToken(fiveMinutes, at(65))).resolves.toBeTruthy()
    const later = await verifyAuthToken(fiveMinutes, at(66)).catch((error) => error)
    expect(later).toMatchObject({ name: 'AuthTokenError', problem: 'expired', message: 'The token was issued 66 s ago, longer than maxAge (60 s) allows.' })
  })

  it('refuses a token whose exp is more than five minutes after its iat, however fresh: a token good for a year is no sign-in token', async () => {
    const year = await token({}, { iat: now, exp: now + 365 * 24 * 3600 })
    const error = await verifyAuthToken(year, { secret, now: at }).catch((error) => error)
    expect(error).toMatchObject({
      name: 'AuthTokenError',
      problem: 'claims',
      message: 'The token claims to be good for 31536000 s from its iat; no more than 300 s is taken.',
    })
    await expect(verifyAuthToken(await token({}, { iat: now, exp: now + 300 }), { secret, now: at })).resolves.toBeTruthy()
    expect(await refusal(verifyAuthToken(await token({}, { iat: now, exp: now + 301 }), { secret, now: at }))).toEqual(['AuthTokenError', 'claims'])
    // The mock's tokens live 120 s: a stricter maxAge keeps the five minutes as the bound on exp.
    await expect(verifyAuthToken(await token({}, { iat: now, exp: now + 120 }), { secret, now: at, maxAge: 30 })).resolves.toBeTruthy()
    expect(await refusal(verifyAuthToken(await token({}, { iat: now, exp: now + 301 }), { secret, now: at, maxAge: 30 }))).toEqual(['AuthTokenError', 'claims'])
  })

  it('takes another maxAge, in seconds like leeway, which also bounds exp when longer than five minutes', async () => {
    const issued = await token({}, { iat: now - 60, exp: now + 60 })
    expect(await refusal(verifyAuthToken(issued, { secret, now: at, maxAge: 30 }))).toEqual(['AuthTokenError', 'expired'])
    expect(await refusal(verifyAuthToken(issued, { secret, now: at, maxAge: 30, leeway: 30 }))).toBe('accepted')
    expect(await refusal(verifyAuthToken(await token({}, { iat: now - 3600, exp: now + 60 }), { secret, now: at, maxAge: 7200 }))).toBe('accepted')
    expect(await refusal(verifyAuthToken(await token({}, { iat: now, exp: now + 7200 }), { secret, now: at, maxAge: 7200 }))).toBe('accepted')
    expect(await refusal(verifyAuthToken(await token({}, { iat: now, exp: now + 7201 }), { secret, now: at, maxAge: 7200 }))).toEqual([
      'AuthTokenError',
      'claims',
    ])
  })

  it.each([
    ['an exp of 1e400, which JSON reads as Infinity', `{"jti":"c","sub":"s","otp":"o","iat":${now},"exp":1e400}`],
    ['an iat of 1e400', `{"jti":"c","sub":"s","otp":"o","iat":1e400,"exp":${now + 60}}`],
    ['an iat of -1e400', `{"jti":"c","sub":"s","otp":"o","iat":-1e400,"exp":${now + 60}}`],
    ['an nbf of -1e400', `{"jti":"c","sub":"s","otp":"o","iat":${now},"nbf":-1e400,"exp":${now + 60}}`],
  ])('refuses %s', async (_, payload) => {
    const error = await verifyAuthToken(rawToken(payload), { secret, now: at }).catch((error) => error)
    expect(error).toMatchObject({ name: 'AuthTokenError', problem: 'claims', message: "The token's iat, exp or nbf is not a finite number." })
  })

  it.each([
    ['no iat', `{"jti":"c","sub":"s","otp":"o","exp":${now + 60}}`],
    ['no exp', `{"jti":"c","sub":"s","otp":"o","iat":${now}}`],
    ['an iat that is text', `{"jti":"c","sub":"s","otp":"o","iat":"${now}","exp":${now + 60}}`],
    ['an exp that is text', `{"jti":"c","sub":"s","otp":"o","iat":${now},"exp":"${now + 60}"}`],
    ['an iat of null', `{"jti":"c","sub":"s","otp":"o","iat":null,"exp":${now + 60}}`],
    ['an nbf that is text', `{"jti":"c","sub":"s","otp":"o","iat":${now},"nbf":"soon","exp":${now + 60}}`],
  ])('refuses a token with %s', async (_, payload) => {
    expect(await refusal(verifyAuthToken(rawToken(payload), { secret, now: at }))).toEqual(['AuthTokenError', 'claims'])
  })

  it.each([
    ['maxAge', { maxAge: -1 }],
    ['maxAge', { maxAge: Number.NaN }],
    ['maxAge', { maxAge: Number.POSITIVE_INFINITY }],
    ['maxAge', { maxAge: '300' as unknown as number }],
    ['leeway', { leeway: -5 }],
    ['leeway', { leeway: Number.NaN }],
  ])('throws a TypeError for a bad %s, %o', async (name, bad) => {
    await expect(verifyAuthToken(await token(), { secret, now: at, ...bad })).rejects.toThrow(new TypeError(`${name} must be a number of seconds, 0 or more.`))
  })
})
