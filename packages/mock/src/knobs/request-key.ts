// Which API key a /v1/ request belongs to, so that a knob rule asked for through a key touches
// that key's requests only. A creation names its key in the body; a status, token or image
// request belongs to its challenge, and so to the key that created it; a signed request names
// its key in the token's `iss`.
import { decodeJwt } from 'jose'
import type { ChallengeStore } from '../service/challenges/challenge-store.js'
import type { RequestKind } from './fault-rules.js'

export interface KeyedRequest {
  kind: RequestKind
  /** The challenge a status, token or image request is about. */
  challengeId: string | undefined
  body: string
  authorization: string | undefined
}

/** The key the request names, or undefined when it names none that can be read. */
export function requestKey(challenges: ChallengeStore, { kind, challengeId, body, authorization }: KeyedRequest): string | undefined {
  switch (kind) {
    case 'create':
      return keyInBody(body)
    case 'status':
    case 'token':
    case 'image':
      return challenges.get(challengeId ?? '')?.key
    default:
      return issuerOf(authorization)
  }
}

// Read leniently, before the handler checks anything: a body the handler will refuse still
// belongs to the key it names, and one that names none belongs to no key.
function keyInBody(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body)
    const key = parsed !== null && typeof parsed === 'object' ? (parsed as { key?: unknown }).key : undefined
    return typeof key === 'string' ? key : undefined
  } catch {
    return undefined
  }
}

// Not verified: the signature is checked by the handler, as ever. A forged `iss` can only bring
// another key's test rules onto the forger's own request, and the knobs are a test tool.
function issuerOf(authorization: string | undefined): string | undefined {
  if (!authorization) return undefined
  try {
    const { iss } = decodeJwt(authorization.trim().replace(/^Bearer\s+/i, ''))
    return typeof iss === 'string' ? iss : undefined
  } catch {
    return undefined
  }
}
