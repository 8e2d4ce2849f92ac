// The sign-in sessions the service keeps for apps that turned them on: one per confirmed
// authentication, until it expires or the app logs it out. Not in the spec; every official
// client reads them (Identity.sessions, /v1/entity/sessions) and the token names one in `sid`.
import type { SessionClient } from 'service-auth/server'
import { nullable, object, type RecordKind, text, timestamp } from '../../store/record-shape.js'
import type { Collection } from '../../store/store.js'
import { DEVICE_RECORD, type Device, type DeviceRecord } from '../identities/identity-store.js'

export type { SessionClient }

export interface Session {
  id: string
  app: string
  identityId: string
  /** The device that signed, as it was then: the record outlives the device's removal. */
  device: Device
  client: SessionClient
  createdAt: Date
  /** When the app last saw the session in use, as it reports with PATCH /v1/entity/sessions. */
  updatedAt: Date
  expiresAt: Date
}

/** How long a session lasts until the app reports its own expiry: a day. */
export const SESSION_LIFETIME_SECONDS = 86_400

export type SessionStart = Pick<Session, 'id' | 'app' | 'identityId' | 'device' | 'client'>

/** A session as stored, its times as timestamps. */
export type SessionRecord = Omit<Session, 'device' | 'createdAt' | 'updatedAt' | 'expiresAt'> & {
  device: DeviceRecord
  createdAt: string
  updatedAt: string
  expiresAt: string
}

export const SESSION_RECORDS: RecordKind<SessionRecord> = {
  shape: object<SessionRecord>({
    id: text,
    app: text,
    identityId: text,
    device: DEVICE_RECORD,
    client: object<SessionClient>({ ip: nullable(text), label: nullable(text), browser: nullable(text), platform: nullable(text), location: nullable(text) }),
    createdAt: timestamp,
    updatedAt: timestamp,
    expiresAt: timestamp,
  }),
  key: { field: 'id', of: (record) => record.id },
}

const toRecord = (session: Session): SessionRecord => ({
  ...session,
  device: { ...session.device, createdAt: session.device.createdAt.toISOString() },
  createdAt: session.createdAt.toISOString(),
  updatedAt: session.updatedAt.toISOString(),
  expiresAt: session.expiresAt.toISOString(),
})

const fromRecord = (record: SessionRecord): Session => ({
  ...record,
  device: { ...record.device, createdAt: new Date(record.device.createdAt) },
  createdAt: new Date(record.createdAt),
  updatedAt: new Date(record.updatedAt),
  expiresAt: new Date(record.expiresAt),
})

export class SessionStore {
  readonly #sessions = new Map<string, Session>()

  constructor(private readonly records: Collection<SessionRecord>) {
    const stored = records.load().map(fromRecord)
    for (const session of stored.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())) this.#sessions.set(session.id, session)
  }

  start(start: SessionStart, now = new Date()): Session {
    const session: Session = {
      ...start,
      device: { ...start.device },
      createdAt: now,
      updatedAt: now,
      expiresAt: new Date(now.getTime() + SESSION_LIFETIME_SECONDS * 1000),
    }
    this.#sessions.set(session.id, session)
    this.records.put(session.id, toRecord(session))
    return session
  }

  /** A live session of the app; another app's, an ended or an expired one is as good as none. */
  get(app: string, id: string): Session | undefined {
    const session = this.#sessions.get(id)
    return session?.app === app && this.#isLive(session) ? session : undefined
  }

  /** The app's live sessions, oldest first. */
  list(app: string): Session[] {
    return this.#live().filter((session) => session.app === app)
  }

  ofIdentity(identityId: string): Session[] {
    return this.#live().filter((session) => session.identityId === identityId)
  }

  update(session: Session, times: { updatedAt?: Date; expiresAt?: Date }): void {
    if (times.updatedAt) session.updatedAt = times.updatedAt
    if (times.expiresAt) session.expiresAt = times.expiresAt
    this.records.put(session.id, toRecord(session))
  }

  end(session: Session): void {
    this.#sessions.delete(session.id)
    this.records.delete(session.id)
  }

  /** When the identity itself is deleted. */
  endAllOf(identityId: string): void {
    for (const session of this.ofIdentity(identityId)) this.end(session)
  }

  /** Forgets one app's sessions, live or not (the app of a freed key: key-knobs.ts). */
  forgetApp(app: string): void {
    for (const session of [...this.#sessions.values()]) {
      if (session.app === app) this.end(session)
    }
  }

  clear(): void {
    this.#sessions.clear()
    this.records.clear()
  }

  /** Live sessions in creation order. */
  #live(): Session[] {
    return [...this.#sessions.values()].filter((session) => this.#isLive(session))
  }

  /** An expired session is forgotten when it is next looked at, so none needs a timer. */
  #isLive(session: Session): boolean {
    if (session.expiresAt.getTime() > Date.now()) return true
    this.#sessions.delete(session.id)
    // Batched: nobody was told of this ending, and a restart would find it expired all the same.
    this.records.delete(session.id, 'batched')
    return false
  }
}
