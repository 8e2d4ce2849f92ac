// The Identity, Device and Session objects as the API answers them (spec section 2; Session and
// Identity.sessions are not in the spec, but every official client reads them). Typed with the
// shapes service-auth/server promises integrators, so the two cannot drift apart.
import type * as Wire from 'service-auth/server'
import type { Device, Identity } from './identity-store.js'
import type { Session, SessionStore } from '../sessions/session-store.js'
import { toTimestamp } from '../timestamps.js'

export function deviceJson(device: Device): Wire.Device {
  return {
    id: device.id,
    createdAt: toTimestamp(device.createdAt),
    // "Model and label concatenated"; a device without a label is just its model.
    name: deviceName(device),
    model: device.model,
    label: device.label,
  }
}

const deviceName = (device: Device) => [device.model, device.label].filter(Boolean).join(' ')

/** The identity with its live sessions. */
export function identityJson(identity: Identity, sessions: SessionStore): Wire.Identity {
  return {
    id: identity.id,
    createdAt: toTimestamp(identity.createdAt),
    locked: identity.locked,
    identifier: identity.identifier,
    nickname: identity.nickname,
    // The spec's helper: the nickname when there is one, for identifiers that are ids or hashes.
    label: identity.nickname || identity.identifier,
    role: identity.role,
    tokens: identity.devices.map(deviceJson),
    sessions: sessions.ofIdentity(identity.id).map((session) => sessionJson(session, identity)),
  }
}

/** `identity` is the session's, for its current identifier (older clients read it, and `deviceLabel`, off the session). */
export function sessionJson(session: Session, identity: Identity | undefined): Wire.Session {
  return {
    id: session.id,
    createdAt: toTimestamp(session.createdAt),
    updatedAt: toTimestamp(session.updatedAt),
    expiresAt: toTimestamp(session.expiresAt),
    identifier: identity?.identifier ?? null,
    deviceLabel: deviceName(session.device),
    client: session.client,
    token: deviceJson(session.device),
  }
}
