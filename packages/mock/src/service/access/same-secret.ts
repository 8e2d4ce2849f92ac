// Secrets compared as a real service must: in constant time, so they cannot be guessed byte by byte.
import { createHash, timingSafeEqual } from 'node:crypto'

/**
 * Whether `given` is `expected`. Both are hashed first, so the comparison takes as long whatever
 * the lengths, and a wrong length tells no more than a wrong byte.
 */
export function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest()
  return timingSafeEqual(digest(given), digest(expected))
}
