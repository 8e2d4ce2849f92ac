// @vitest-environment node
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { createClient, handleControllerRequest, handleFetchRequest, verifyAuthToken } from '../../src/server/index.js'
import { secretBytes } from '../../src/server/secret.js'

describe('secretBytes', () => {
  const bytes = randomBytes(32)

  it('decodes the Base64 the service issues, also URL-safe, unpadded or with a stray newline', () => {
    for (const text of [bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('base64').replace(/=+$/, ''), bytes.toString('base64') + '\n']) {
      expect(Buffer.from(secretBytes(text)).equals(bytes)).toBe(true)
    }
  })

  it('reads - and _ of the URL-safe alphabet as + and /', () => {
    // 0xfb 0xff 0xbf encodes to "+/+/" in the standard alphabet, "-_-_" in the URL-safe one.
    const both = Buffer.concat([Buffer.alloc(30, 0xfb), Buffer.from([0xff, 0xbf, 0xfb, 0xff, 0xbf, 0xfb])])
    expect(both.toString('base64url')).toMatch(/-.*_|_.*-/)
    expect(Buffer.from(secretBytes(both.toString('base64url'))).equals(both)).toBe(true)
  })

  it('takes a longer secret too', () => {
    const long = randomBytes(64)
    expect(Buffer.from(secretBytes(long.toString('base64'))).equals(long)).toBe(true)
  })

  it('refuses a missing secret with a TypeError that says so', () => {
    for (const text of ['', '  ', '  \n', undefined as unknown as string, null as unknown as string]) {
      expect(() => secretBytes(text)).toThrow(new TypeError('secret (the API secret) is missing: pass the Base64 text the service issued.'))
    }
  })

  it.each([
    ['a number', 42, 'a number'],
    ['an object', {}, 'an object'],
    ['a Buffer', bytes, "bytes (read the secret's file as utf8 text)"],
    ['a Uint8Array', new Uint8Array(bytes), "bytes (read the secret's file as utf8 text)"],
    ['an array', [bytes.toString('base64')], 'an array'],
    ['a boolean', true, 'a boolean'],
  ])('refuses %s as a secret of the wrong type, saying what it got and never the value', (_, secret, got) => {
    const message = `secret (the API secret) must be the Base64 text the service issued, as a string; got ${got}.`
    expect(() => secretBytes(secret as unknown as string)).toThrow(new TypeError(message))
  })

  it.each([
    ['a character outside both alphabets', bytes.toString('base64').slice(0, -2) + '!='],
    ['a space inside', bytes.toString('base64').slice(0, 20) + ' ' + bytes.toString('base64').slice(20)],
    ['both alphabets mixed', '+_' + 'A'.repeat(42)],
    ['too much padding', bytes.toString('base64') + '='],
    ['padding in the middle', bytes.toString('base64') + 'AA=='],
    // 33 bytes are 44 characters without padding: with == inside and two more at the end, a length of 48.
    [
      'padding inside only',
      randomBytes(33)
        .toString('base64')
        .replace(/^(.{20})/, '$1==') + 'AA',
    ],
    ['a length no Base64 has', 'A'.repeat(45)],
    ['padding alone', '===='],
  ])('refuses %s as not Base64', (_, text) => {
    expect(() => secretBytes(text)).toThrow(/^secret \(the API secret\) is not Base64 text/)
  })

  it.each([
    ['changeme', 6],
    ['AA==', 1],
    ['c2VjcmV0', 6],
    [Buffer.alloc(31, 7).toString('base64'), 31],
    [Buffer.alloc(16, 7).toString('base64url'), 16],
  ])('refuses %s: it decodes to %i bytes, fewer than 32', (text, length) => {
    expect(() => secretBytes(text)).toThrow(
      new TypeError(
        `secret (the API secret) decodes to ${length} byte${length === 1 ? '' : 's'}; it must be at least 32, as the service issues it. Is it a placeholder or cut short?`,
      ),
    )
  })
})

describe('every part that takes the secret refuses a bad one, before anything else', () => {
  const client = { key: 'pk_test', baseUrl: 'https://api.example', authenticate: async () => ({}) }
  const controller = (secret: string) => ({ client, secret, findUser: () => ({}), startSession: () => '/' })

  it.each([['changeme'], ['AA=='], ['not base64!']])('%s', async (secret) => {
    expect(() => createClient({ baseUrl: 'https://api.example', key: 'k', secret })).toThrow(TypeError)
    // With no token at all: a bad secret is found on the first request, not on the first good token.
    await expect(verifyAuthToken(undefined, { secret })).rejects.toThrow(TypeError)
    await expect(handleControllerRequest({ headers: {} }, controller(secret))).rejects.toThrow(/^secret \(the API secret\)/)
    await expect(handleFetchRequest(new Request('https://shop.example/auth/controller'), controller(secret))).rejects.toThrow(/^secret \(the API secret\)/)
  })
})

describe('createClient says a secret of the wrong type is one, and a missing one is missing', () => {
  const options = { baseUrl: 'https://api.example', key: 'k' }
  const wrongType = (got: string) => new TypeError(`secret (the API secret) must be the Base64 text the service issued, as a string; got ${got}.`)
  const missing = new TypeError('secret (the API secret) is missing: pass the Base64 text the service issued.')

  it.each([
    [5, 'a number'],
    [{ secret: 'nested' }, 'an object'],
  ])('%o', (secret, got) => {
    expect(() => createClient({ ...options, secret: secret as unknown as string })).toThrow(wrongType(got))
  })

  it.each([[undefined], ['  ']])('%o', (secret) => {
    expect(() => createClient({ ...options, secret: secret as unknown as string })).toThrow(missing)
  })
})
