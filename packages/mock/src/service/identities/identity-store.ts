// The identities (spec sections 2 and 3), per app, with their provisioned devices, each written
// through to the store as a whole. Callers validate first: every method here changes state and
// assumes its input is good.
import { randomUUID } from 'node:crypto'
import { flag, list, nullable, object, type RecordKind, text, timestamp, wholeNumber } from '../../store/record-shape.js'
import type { Collection } from '../../store/store.js'

export interface Device {
  id: string
  createdAt: Date
  model: string
  label: string
}

export interface Identity {
  id: string
  app: string
  /** Creation order, for stable paging: a rename must not move an identity to the end. */
  seq: number
  createdAt: Date
  identifier: string
  nickname: string | null
  role: string
  locked: boolean
  devices: Device[]
}

/** The fields create, enroll and update may set. */
export interface IdentityChanges {
  nickname?: string | null
  role?: string
  locked?: boolean
}

export const DEFAULT_ROLE = 'ROLE_USER'

/** A device as stored, in its identity's record (and a session's), its time as a timestamp. */
export type DeviceRecord = Omit<Device, 'createdAt'> & { createdAt: string }

/** An identity as stored, its times as timestamps. */
export type IdentityRecord = Omit<Identity, 'createdAt' | 'devices'> & { createdAt: string; devices: DeviceRecord[] }

export const DEVICE_RECORD = object<DeviceRecord>({ id: text, createdAt: timestamp, model: text, label: text })

export const IDENTITY_RECORDS: RecordKind<IdentityRecord> = {
  shape: object<IdentityRecord>({
    id: text,
    app: text,
    seq: wholeNumber,
    createdAt: timestamp,
    identifier: text,
    nickname: nullable(text),
    role: text,
    locked: flag,
    devices: list(DEVICE_RECORD),
  }),
  key: { field: 'id', of: (record) => record.id },
}

const toRecord = (identity: Identity): IdentityRecord => ({
  ...identity,
  createdAt: identity.createdAt.toISOString(),
  devices: identity.devices.map((device) => ({ ...device, createdAt: device.createdAt.toISOString() })),
})

const fromRecord = (record: IdentityRecord): Identity => ({
  ...record,
  createdAt: new Date(record.createdAt),
  devices: record.devices.map((device) => ({ ...device, createdAt: new Date(device.createdAt) })),
})

export class IdentityStore {
  /** app > identifier > identity: identifiers are unique per app, not across apps. */
  readonly #byApp = new Map<string, Map<string, Identity>>()
  readonly #byId = new Map<string, Identity>()
  #seq = 0

  constructor(private readonly records: Collection<IdentityRecord>) {
    for (const identity of records
      .load()
      .map(fromRecord)
      .sort((a, b) => a.seq - b.seq)) {
      this.#appMap(identity.app).set(identity.identifier, identity)
      this.#byId.set(identity.id, identity)
      this.#seq = identity.seq
    }
  }

  get(app: string, identifier: string): Identity | undefined {
    return this.#byApp.get(app)?.get(identifier)
  }

  /** By id, which survives renames; undefined once the identity was deleted. */
  getById(id: string): Identity | undefined {
    return this.#byId.get(id)
  }

  create(app: string, identifier: string, changes: IdentityChanges = {}): Identity {
    const identity: Identity = {
      id: randomUUID(),
      app,
      seq: ++this.#seq,
      createdAt: new Date(),
      identifier,
      nickname: null,
      role: DEFAULT_ROLE,
      locked: false,
      devices: [],
    }
    applyChanges(identity, changes)
    this.#appMap(app).set(identifier, identity)
    this.#byId.set(identity.id, identity)
    this.#save(identity)
    return identity
  }

  update(identity: Identity, changes: IdentityChanges): void {
    applyChanges(identity, changes)
    this.#save(identity)
  }

  rename(identity: Identity, identifier: string): void {
    const identities = this.#appMap(identity.app)
    identities.delete(identity.identifier)
    identity.identifier = identifier
    identities.set(identifier, identity)
    this.#save(identity)
  }

  delete(identity: Identity): void {
    this.#byApp.get(identity.app)?.delete(identity.identifier)
    this.#byId.delete(identity.id)
    this.records.delete(identity.id)
  }

  /** The app's identities in creation order. */
  list(app: string): Identity[] {
    return [...(this.#byApp.get(app)?.values() ?? [])].sort((a, b) => a.seq - b.seq)
  }

  addDevice(identity: Identity, device: { model: string; label: string }): Device {
    const added: Device = { id: randomUUID(), createdAt: new Date(), ...device }
    identity.devices.push(added)
    this.#save(identity)
    return added
  }

  removeDevice(identity: Identity, device: Device): void {
    identity.devices = identity.devices.filter((candidate) => candidate !== device)
    this.#save(identity)
  }

  /** The device with this id among the app's identities, with its identity. */
  findDevice(app: string, deviceId: string): { identity: Identity; device: Device } | undefined {
    for (const identity of this.#byApp.get(app)?.values() ?? []) {
      const device = identity.devices.find((candidate) => candidate.id === deviceId)
      if (device) return { identity, device }
    }
    return undefined
  }

  /** Forgets one app's identities (the app of a freed key: key-knobs.ts). */
  forgetApp(app: string): void {
    for (const identity of this.#byApp.get(app)?.values() ?? []) {
      this.#byId.delete(identity.id)
      this.records.delete(identity.id)
    }
    this.#byApp.delete(app)
  }

  clear(): void {
    this.#byApp.clear()
    this.#byId.clear()
    this.records.clear()
  }

  #save(identity: Identity): void {
    this.records.put(identity.id, toRecord(identity))
  }

  #appMap(app: string): Map<string, Identity> {
    let identities = this.#byApp.get(app)
    if (!identities) this.#byApp.set(app, (identities = new Map()))
    return identities
  }
}

function applyChanges(identity: Identity, changes: IdentityChanges): void {
  if (changes.nickname !== undefined) identity.nickname = changes.nickname
  if (changes.role !== undefined) identity.role = changes.role
  if (changes.locked !== undefined) identity.locked = changes.locked
}
