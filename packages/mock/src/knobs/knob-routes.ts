// The /__knobs/ endpoints: how tests and people decide when a phone enrolls and signs, when a
// challenge expires and when the service fails or dawdles, instead of waiting on real time.
// They are apart from the /v1/ API, unsigned, and off unless the service is started with them.
// Each knob is here once, with the line that says what it does: GET /__knobs/ (the address the
// banner prints) lists them from this table, and openapi.yaml's summaries are held to it.
import { sendJson, type Route } from '@service-auth/http'
import { createKey, freeKey } from './key-knobs.js'
import { consume, expire, failChallenge, listChallenges, sign } from './challenge-knobs.js'
import type { KnobHandler } from './knob-context.js'
import { expireEnrollment, listEnrollments, provisionDevice } from './device-knobs.js'
import { delay, endFailures, fail, hold, listHeld, release } from './fault-knobs.js'
import { clearOutbox, configure, listOutbox, listRequests, reset, showConfig } from './state-knobs.js'

/** A knob: what answers it, and what it does in one line (its operation's summary in openapi.yaml). */
export interface Knob {
  handle: KnobHandler
  doc: string
}

/** Knobs at one path: the path as openapi.yaml writes it (`{id}` a segment), and its knob per method. */
export interface KnobRoute extends Route<Knob> {
  path: string
}

/** An entry of GET /__knobs/. */
export interface KnobIndexEntry {
  method: string
  path: string
  doc: string
}

const route = (path: string, methods: Record<string, Knob>): KnobRoute => ({
  path,
  // Each `{param}` one segment. The index's trailing slash is optional: the banner prints
  // `/__knobs/`, and a person may well type `/__knobs`.
  pattern: new RegExp(`^${path.replace(/\{[^/}]+\}/g, '([^/]+)').replace(/\/$/, '/?')}$`),
  methods,
})

const listKnobs: KnobHandler = (_context, { res }) =>
  sendJson(
    res,
    200,
    KNOB_ROUTES.flatMap(({ path, methods }) => Object.entries(methods).map(([method, knob]): KnobIndexEntry => ({ method, path, doc: knob!.doc }))),
  )

export const KNOB_ROUTES: KnobRoute[] = [
  route('/__knobs/', { GET: { handle: listKnobs, doc: 'Every knob: its method, its path and what it does' } }),
  route('/__knobs/challenges', { GET: { handle: listChallenges, doc: 'Every challenge, in creation order, with its state and status polls' } }),
  route('/__knobs/challenges/{id}/sign', { POST: { handle: sign, doc: 'The phone signs, as a provisioned device of the identity' } }),
  route('/__knobs/challenges/{id}/expire', { POST: { handle: expire, doc: 'The challenge expires now; a consumed one is 409' } }),
  route('/__knobs/challenges/{id}/consume', { POST: { handle: consume, doc: 'What a confirmation does to the challenge; an expired one is 409' } }),
  route('/__knobs/challenges/{id}/fail', { POST: { handle: failChallenge, doc: 'The next status polls of this challenge fail (default 500, once)' } }),
  route('/__knobs/keys', { POST: { handle: createKey, doc: 'A fresh API key of an app of its own, for one test' } }),
  route('/__knobs/keys/{key}', { DELETE: { handle: freeKey, doc: 'Frees a key taken with POST /__knobs/keys, and everything of it' } }),
  route('/__knobs/devices', { POST: { handle: provisionDevice, doc: 'A phone scans an enrollment QR code and redeems its token' } }),
  route('/__knobs/enrollments', { GET: { handle: listEnrollments, doc: 'Every enrollment token, with its state' } }),
  route('/__knobs/enrollments/{id}/expire', {
    POST: { handle: expireEnrollment, doc: 'The enrollment token expires now; redeeming it is then a 410' },
  }),
  route('/__knobs/fail', {
    POST: { handle: fail, doc: 'The next N matching /v1/ requests fail as asked' },
    DELETE: { handle: endFailures, doc: 'The failures still queued go unused (with `key`, those queued through it)' },
  }),
  route('/__knobs/delay', { POST: { handle: delay, doc: 'The next N matching /v1/ requests wait `ms` first' } }),
  route('/__knobs/hold', {
    GET: { handle: listHeld, doc: 'The requests waiting for a release, oldest first' },
    POST: { handle: hold, doc: 'The next N matching /v1/ requests wait until POST /__knobs/release' },
  }),
  route('/__knobs/release', {
    POST: { handle: release, doc: "Lets every waiting request go on (with `key`, that key's only); hold rules not used yet stay" },
  }),
  route('/__knobs/config', {
    GET: { handle: showConfig, doc: 'The settings the knobs may change' },
    POST: { handle: configure, doc: 'Change settings; they apply to what is created or received afterwards' },
  }),
  route('/__knobs/requests', { GET: { handle: listRequests, doc: 'The last 1000 /v1/ requests received, oldest first; credentials as fingerprints' } }),
  route('/__knobs/outbox', {
    GET: { handle: listOutbox, doc: 'The last 100 e-mails the service would have sent, oldest first' },
    DELETE: { handle: clearOutbox, doc: 'Empties the outbox' },
  }),
  route('/__knobs/reset', { POST: { handle: reset, doc: 'A clean start' } }),
]
