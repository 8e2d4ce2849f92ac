// Enrollment tokens (spec section 3, Identity: "Enrollment token created"), written through to
// the store. A token is redeemed once, by the device that scans it, before it expires; old ones
// are swept.
import { randomUUID } from 'node:crypto'
import { object, optional, type RecordKind, text, timestamp } from '../../store/record-shape.js'
import type { Collection } from '../../store/store.js'

/** Seconds a token lives when enroll names no timeout: a day, so an e-mailed code still works tomorrow. */
export const DEFAULT_ENROLLMENT_TIMEOUT_SECONDS = 86_400
/** The longest timeout enroll accepts: 30 days. */
export const MAX_ENROLLMENT_TIMEOUT_SECONDS = 2_592_000

export type EnrollmentState = 'pending' | 'redeemed' | 'expired'

export interface Enrollment {
  id: string
  app: string
  /** The identity's id, not its identifier: a rename must not orphan the token. */
  identityId: string
  createdAt: Date
  expiresAt: Date
  redeemedAt?: Date
}

/** An enrollment as stored, its times as timestamps. */
export type EnrollmentRecord = Omit<Enrollment, 'createdAt' | 'expiresAt' | 'redeemedAt'> & { createdAt: string; expiresAt: string; redeemedAt?: string }

export const ENROLLMENT_RECORDS: RecordKind<EnrollmentRecord> = {
  shape: object<EnrollmentRecord>({ id: text, app: text, identityId: text, createdAt: timestamp, expiresAt: timestamp, redeemedAt: optional(timestamp) }),
  key: { field: 'id', of: (record) => record.id },
}

const toRecord = ({ createdAt, expiresAt, redeemedAt, ...rest }: Enrollment): EnrollmentRecord => ({
  ...rest,
  createdAt: createdAt.toISOString(),
  expiresAt: expiresAt.toISOString(),
  ...(redeemedAt && { redeemedAt: redeemedAt.toISOString() }),
})

const fromRecord = ({ createdAt, expiresAt, redeemedAt, ...rest }: EnrollmentRecord): Enrollment => ({
  ...rest,
  createdAt: new Date(createdAt),
  expiresAt: new Date(expiresAt),
  ...(redeemedAt && { redeemedAt: new Date(redeemedAt) }),
})

/** What an enrollment QR code says: the token id, which is all a device needs to redeem it. */
export const enrollmentQrText = (id: string): string => `serviceauth:enroll:${id}`

/** The token id from what a device scanned: the QR text, or the bare id. */
export const enrollmentIdFrom = (scanned: string): string => scanned.replace(/^serviceauth:enroll:/, '')

// Long enough for a late redemption to hear "expired" rather than "unknown", short enough to bound memory.
const KEEP_AFTER_EXPIRY_MS = 5 * 60_000
const SWEEP_EVERY_MS = 60_000

export class EnrollmentStore {
  readonly #enrollments = new Map<string, Enrollment>()
  readonly #sweeper: NodeJS.Timeout

  constructor(private readonly records: Collection<EnrollmentRecord>) {
    const stored = records.load().map(fromRecord)
    for (const enrollment of stored.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) this.#enrollments.set(enrollment.id, enrollment)
    this.sweep()
    this.#sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS)
    this.#sweeper.unref()
  }

  create(app: string, identityId: string, timeoutSeconds: number): Enrollment {
    const createdAt = new Date()
    const enrollment: Enrollment = {
      id: randomUUID(),
      app,
      identityId,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + timeoutSeconds * 1000),
    }
    this.#enrollments.set(enrollment.id, enrollment)
    this.records.put(enrollment.id, toRecord(enrollment))
    return enrollment
  }

  get(id: string): Enrollment | undefined {
    return this.#enrollments.get(id)
  }

  list(): Enrollment[] {
    return [...this.#enrollments.values()]
  }

  /** Read off the clock, so an enrollment needs no timer of its own (they may last days). */
  stateOf(enrollment: Enrollment, now = Date.now()): EnrollmentState {
    if (enrollment.redeemedAt) return 'redeemed'
    return enrollment.expiresAt.getTime() <= now ? 'expired' : 'pending'
  }

  redeem(enrollment: Enrollment): void {
    enrollment.redeemedAt = new Date()
    this.records.put(enrollment.id, toRecord(enrollment))
  }

  /** Expires it now (a knob); a redeemed token stays redeemed. */
  expire(enrollment: Enrollment): void {
    const now = new Date()
    if (enrollment.expiresAt > now) enrollment.expiresAt = now
    this.records.put(enrollment.id, toRecord(enrollment))
  }

  /** Forgets tokens expired or redeemed long ago; runs every minute by itself. */
  sweep(now = Date.now()): void {
    const cutoff = now - KEEP_AFTER_EXPIRY_MS
    for (const enrollment of this.#enrollments.values()) {
      const over = Math.min(enrollment.expiresAt.getTime(), enrollment.redeemedAt?.getTime() ?? Infinity)
      if (over < cutoff) {
        this.#enrollments.delete(enrollment.id)
        this.records.delete(enrollment.id, 'batched')
      }
    }
  }

  /** Forgets one app's tokens (the app of a freed key: key-knobs.ts). */
  forgetApp(app: string): void {
    for (const enrollment of [...this.#enrollments.values()]) {
      if (enrollment.app !== app) continue
      this.#enrollments.delete(enrollment.id)
      this.records.delete(enrollment.id)
    }
  }

  clear(): void {
    this.#enrollments.clear()
    this.records.clear()
  }

  /** Stops the sweeper; what is stored stays. */
  close(): void {
    clearInterval(this.#sweeper)
    this.#enrollments.clear()
  }
}
