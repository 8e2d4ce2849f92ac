// @vitest-environment node
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { secretBytes } from '../../src/server/secret.ts'

describe('secretBytes', () => {
  const bytes = randomBytes(32)

  it('decodes the Base64 the service issues, also URL-safe, unpadded or with a stray newline', () => {
    for (const text of [bytes.toString('base64'), bytes.toString('base64url'), bytes.toString('base64').replace(/=+$/, ''), bytes.toString('base64') + '\n']) {
      expect(Buffer.from(secretBytes(text)).equals(bytes)).toBe(true)
    }
  })

  it('refuses what is not Base64 with a TypeError: the integrator\'s configuration is wrong', () => {
    for (const text of ['', 'not base64!', '====', undefined as unknown as string]) {
      expect(() => secretBytes(text)).toThrow(TypeError)
    }
  })
})
