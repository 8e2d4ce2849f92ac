// The challenges and their state machine (spec section 3): pending > signed > consumed, and
// pending or signed > expired. Held long polls subscribe here and are told at once when their
// challenge changes. Every change is written through to the store, and a restart picks the
// challenges up again, their expiry timers included.
import { randomBytes, randomUUID } from 'node:crypto'
import type { Timers } from '../../common/timers.js'
import { nullable, object, oneOf, optional, type RecordKind, text, timestamp } from '../../store/record-shape.js'
import type { Collection } from '../../store/store.js'

const CHALLENGE_STATES = ['pending', 'signed', 'expired', 'consumed'] as const

export type ChallengeState = (typeof CHALLENGE_STATES)[number]

/** Who signed a challenge, and the one-time password authenticate must be given. */
export interface ChallengeSigner {
  identityId: string
  deviceId: string
  identifier: string
  otp: string
  /** The sign-in session a confirmation starts (the token's `sid`), when the app has sessions on. */
  sessionId?: string
}

/** The browser that asked for the challenge, as its requests showed it. */
export interface ChallengeBrowser {
  ip: string | null
  userAgent: string | null
}

export interface ChallengeOwner {
  app: string
  key: string
  /** What the creation asked for; default `web`. */
  authType?: string
  browser?: ChallengeBrowser
}

export interface Challenge {
  id: string
  /**
   * Known only to the browser that created the challenge (its pollingUrl carries it), never in
   * the QR code: whoever sees the code learns the id, but cannot read the token with it.
   */
  pollSecret: string
  /** The app of the key that created it: only that app's keys may authenticate it. */
  app: string
  /** The key that created it; its secret signs the token. */
  key: string
  authType: string
  browser: ChallengeBrowser
  createdAt: Date
  expiresAt: Date
  state: ChallengeState
  /** The signed JWT, once the phone signed. */
  token?: string
  signer?: ChallengeSigner
  /** Status requests received for this challenge, for tests to wait on. */
  polls: number
  /** Rendered QR images by kind, made once on first use. */
  images: Map<string, Promise<Buffer>>
}

/** A challenge as stored: what survives a restart (poll counts and rendered images do not). */
export type ChallengeRecord = Omit<Challenge, 'createdAt' | 'expiresAt' | 'polls' | 'images'> & { createdAt: string; expiresAt: string }

export const CHALLENGE_RECORDS: RecordKind<ChallengeRecord> = {
  shape: object<ChallengeRecord>({
    id: text,
    pollSecret: text,
    app: text,
    key: text,
    authType: text,
    browser: object<ChallengeBrowser>({ ip: nullable(text), userAgent: nullable(text) }),
    createdAt: timestamp,
    expiresAt: timestamp,
    state: oneOf(CHALLENGE_STATES),
    token: optional(text),
    signer: optional(object<ChallengeSigner>({ identityId: text, deviceId: text, identifier: text, otp: text, sessionId: optional(text) })),
  }),
  key: { field: 'id', of: (record) => record.id },
}

const toRecord = ({ polls, images, createdAt, expiresAt, ...rest }: Challenge): ChallengeRecord => ({
  ...rest,
  createdAt: createdAt.toISOString(),
  expiresAt: expiresAt.toISOString(),
})

const fromRecord = (record: ChallengeRecord): Challenge => ({
  ...record,
  createdAt: new Date(record.createdAt),
  expiresAt: new Date(record.expiresAt),
  polls: 0,
  images: new Map(),
})

/** Called with the challenge after it changed, or undefined when it was removed. */
type Listener = (challenge: Challenge | undefined) => void

// Long enough to answer late polls with 410 rather than 404, short enough to bound memory.
const KEEP_AFTER_EXPIRY_MS = 5 * 60_000
const SWEEP_EVERY_MS = 60_000

export class ChallengeStore {
  readonly #challenges = new Map<string, Challenge>()
  readonly #expiryTimers = new Map<string, NodeJS.Timeout>()
  readonly #listeners = new Map<string, Set<Listener>>()
  readonly #sweeper: NodeJS.Timeout

  constructor(
    private readonly timers: Timers,
    private readonly records: Collection<ChallengeRecord>,
  ) {
    const stored = records.load().map(fromRecord)
    for (const challenge of stored.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) {
      this.#challenges.set(challenge.id, challenge)
      if (challenge.state === 'pending' || challenge.state === 'signed') this.#expireIn(challenge, challenge.expiresAt.getTime() - Date.now())
    }
    this.sweep()
    this.#sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS)
    this.#sweeper.unref()
  }

  create(ttlMs: number, owner: ChallengeOwner): Challenge {
    const createdAt = new Date()
    const challenge: Challenge = {
      id: randomUUID(),
      pollSecret: randomBytes(32).toString('base64url'),
      app: owner.app,
      key: owner.key,
      authType: owner.authType ?? 'web',
      browser: owner.browser ?? { ip: null, userAgent: null },
      createdAt,
      expiresAt: new Date(createdAt.getTime() + ttlMs),
      state: 'pending',
      polls: 0,
      images: new Map(),
    }
    this.#challenges.set(challenge.id, challenge)
    // Batched: the hot path, and a lost one costs the page only a new one (see Durability).
    this.records.put(challenge.id, toRecord(challenge), 'batched')
    this.#expireIn(challenge, ttlMs)
    return challenge
  }

  get(id: string): Challenge | undefined {
    return this.#challenges.get(id)
  }

  /** In creation order (Map keeps insertion order). */
  list(): Challenge[] {
    return [...this.#challenges.values()]
  }

  sign(challenge: Challenge, token: string, signer: ChallengeSigner): void {
    challenge.state = 'signed'
    challenge.token = token
    challenge.signer = signer
    this.records.put(challenge.id, toRecord(challenge))
    this.#changed(challenge)
  }

  expire(id: string): void {
    const challenge = this.#challenges.get(id)
    if (!challenge || challenge.state === 'expired' || challenge.state === 'consumed') return
    this.timers.clear(this.#expiryTimers.get(id))
    this.#expiryTimers.delete(id)
    challenge.state = 'expired'
    // Expired early by a knob? Then expiresAt says when it really happened.
    if (challenge.expiresAt.getTime() > Date.now()) challenge.expiresAt = new Date()
    this.records.put(challenge.id, toRecord(challenge))
    this.#changed(challenge)
  }

  consume(challenge: Challenge): void {
    this.timers.clear(this.#expiryTimers.get(challenge.id))
    this.#expiryTimers.delete(challenge.id)
    challenge.state = 'consumed'
    this.records.put(challenge.id, toRecord(challenge))
    this.#changed(challenge)
  }

  /** Subscribes to changes of one challenge; returns the unsubscribe function. */
  onChange(id: string, listener: Listener): () => void {
    let listeners = this.#listeners.get(id)
    if (!listeners) this.#listeners.set(id, (listeners = new Set()))
    listeners.add(listener)
    return () => {
      listeners.delete(listener)
      // Unsubscribing twice must not drop a newer set registered for the same id.
      if (listeners.size === 0 && this.#listeners.get(id) === listeners) this.#listeners.delete(id)
    }
  }

  /** Forgets the challenges of one API key (a freed one: key-knobs.ts); their held polls hear that they are gone. */
  forgetKey(key: string): void {
    for (const challenge of [...this.#challenges.values()]) {
      if (challenge.key !== key) continue
      this.#remove(challenge.id)
      this.records.delete(challenge.id)
    }
  }

  /** Forgets every challenge; held polls hear that theirs is gone. */
  clear(): void {
    for (const id of this.#challenges.keys()) this.#remove(id)
    this.records.clear()
  }

  /** Stops the timers; what is stored stays. */
  close(): void {
    clearInterval(this.#sweeper)
    for (const handle of this.#expiryTimers.values()) this.timers.clear(handle)
    this.#expiryTimers.clear()
    this.#listeners.clear()
    this.#challenges.clear()
  }

  #changed(challenge: Challenge): void {
    for (const listener of [...(this.#listeners.get(challenge.id) ?? [])]) listener(challenge)
  }

  /** A timer per challenge, so a held poll hears about expiry the moment it happens. */
  #expireIn(challenge: Challenge, ms: number): void {
    this.#expiryTimers.set(
      challenge.id,
      this.timers.set(() => this.expire(challenge.id), Math.max(0, ms)),
    )
  }

  #remove(id: string): void {
    this.timers.clear(this.#expiryTimers.get(id))
    this.#expiryTimers.delete(id)
    this.#challenges.delete(id)
    for (const listener of [...(this.#listeners.get(id) ?? [])]) listener(undefined)
    this.#listeners.delete(id)
  }

  /** Forgets challenges that expired long ago; runs every minute by itself. */
  sweep(now = Date.now()): void {
    const cutoff = now - KEEP_AFTER_EXPIRY_MS
    for (const challenge of this.#challenges.values()) {
      if (challenge.expiresAt.getTime() < cutoff) {
        this.#remove(challenge.id)
        this.records.delete(challenge.id, 'batched')
      }
    }
  }
}
