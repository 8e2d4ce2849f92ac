// What the /__knobs/ endpoints take and answer, as types: the handlers build their answers with
// them, and the knob client (`@service-auth/mock/knobs`) sends and reads them, so the two cannot
// drift. Types only, and none of the service's machinery, so that the client's published types
// stay small.
import type { Device, Identity } from 'service-auth/server'
import type { ChallengeState } from '../service/challenges/challenge-store.js'
import type { EnrollmentState } from '../service/enrollments/enrollment-store.js'
import type { RequestKind, RuleMatch } from './fault-rules.js'

export type { ChallengeState, EnrollmentState, RequestKind, RuleMatch }
export type { HeldRequest } from './holds.js'
export type { LoggedRequest } from './request-log.js'
export type { OutboxAttachment, OutboxMessage } from '../service/enrollments/outbox.js'
import type { ServiceSettings } from '../service/settings.js'
export type { ServiceSettings }

/** The body of a knob that may be limited to one API key's requests and challenges. */
export interface KeyScope {
  /** Only this API key's; every key's without one. */
  key?: string
}

/** A failure rule's fields, shared by /__knobs/fail and the per-challenge fail knob. */
export interface FailFields {
  /** The status to answer (200 to 599); ignored with `network`. */
  status?: number
  /** How many matching requests fail; default 1. */
  count?: number
  /** A Retry-After header. */
  retryAfter?: string
  /** A raw body instead of problem JSON, and its Content-Type. */
  body?: string
  contentType?: string
  /** A Location header: with a 3xx status, a redirect there (the controller check's `service-redirects`). */
  location?: string
  /** Drop the connection without an answer. */
  network?: boolean
}

/** POST /__knobs/fail: the next `count` requests that match fail. */
export interface FailKnob extends FailFields, KeyScope {
  status: number
  /** Which requests: default `any`. */
  match?: RuleMatch
}

/** POST /__knobs/challenges/{id}/fail: the next `count` status polls of the challenge fail; default status 500. */
export interface ChallengeFailKnob extends FailFields, KeyScope {}

/** POST /__knobs/delay: the next `count` requests that match wait `ms` first. */
export interface DelayKnob extends KeyScope {
  ms: number
  /** Default 1. */
  count?: number
  match?: RuleMatch
}

/** POST /__knobs/hold: the next `count` requests that match wait until a release. */
export interface HoldKnob extends KeyScope {
  /** Default 1. */
  count?: number
  match?: RuleMatch
}

/** POST /__knobs/config: the settings to change; it answers them all, as GET /__knobs/config does. */
export type SettingsKnob = Partial<ServiceSettings>

/** What POST /__knobs/release answers. */
export interface Released {
  /** How many held requests went on. */
  released: number
}

/** A challenge as GET /__knobs/challenges lists it. */
export interface ListedChallenge {
  id: string
  state: ChallengeState
  /** <timestamp> */
  createdAt: string
  expiresAt: string
  /** Status requests received for it. */
  polls: number
  app: string
  /** The API key that created it. */
  key: string
  /** Who signed it, once signed. */
  identifier: string | null
}

/** POST /__knobs/challenges/{id}/sign: signs as a provisioned device of the identity (its newest), or as the device named. */
export interface SignKnob extends KeyScope {
  identifier?: string
  deviceId?: string
}

/** What the sign knob answers: the token the embed will get. */
export interface SignedChallenge {
  token: string
}

/** POST /__knobs/devices: redeems an enrollment as a phone would. */
export interface DeviceKnob {
  /** What the enrollment QR code says, or the bare enrollment id. */
  token: string
  /** Default "Mock phone". */
  model?: string
  label?: string
}

/** What the devices knob answers (201). */
export interface ProvisionedDevice {
  device: Device
  identity: Identity
}

/** An enrollment as GET /__knobs/enrollments lists it. */
export interface ListedEnrollment {
  id: string
  state: EnrollmentState
  app: string
  identifier: string | null
  createdAt: string
  expiresAt: string
}

/** What POST /__knobs/keys answers (201): a fresh API key of an app of its own, any origin, every permission. */
export interface IssuedKey {
  key: string
  /** Base64. */
  secret: string
  app: string
}
