// The Identity and Device objects as the API answers them (spec section 2).
import type { Device, Identity } from './identity-store.ts'
import { toTimestamp } from './timestamps.ts'

export function deviceJson(device: Device) {
  return {
    id: device.id,
    createdAt: toTimestamp(device.createdAt),
    // "Model and label concatenated"; a device without a label is just its model.
    name: [device.model, device.label].filter(Boolean).join(' '),
    model: device.model,
    label: device.label,
  }
}

export function identityJson(identity: Identity) {
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
  }
}
