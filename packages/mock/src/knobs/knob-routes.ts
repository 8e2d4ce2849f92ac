// The /__knobs/ endpoints: how tests and people decide when a phone enrolls and signs, when a
// challenge expires and when the service fails or dawdles, instead of waiting on real time.
// They are apart from the /v1/ API, unsigned, and off unless the service is started with them.
import type { Route } from '@service-auth/http'
import { createKey, freeKey } from './key-knobs.js'
import { consume, expire, failChallenge, listChallenges, sign } from './challenge-knobs.js'
import type { KnobHandler } from './knob-context.js'
import { expireEnrollment, listEnrollments, provisionDevice } from './device-knobs.js'
import { delay, endFailures, fail, hold, listHeld, release } from './fault-knobs.js'
import { clearOutbox, configure, listOutbox, listRequests, reset, showConfig } from './state-knobs.js'

export const KNOB_ROUTES: Route<KnobHandler>[] = [
  { pattern: /^\/__knobs\/challenges$/, methods: { GET: listChallenges } },
  { pattern: /^\/__knobs\/challenges\/([^/]+)\/sign$/, methods: { POST: sign } },
  { pattern: /^\/__knobs\/challenges\/([^/]+)\/expire$/, methods: { POST: expire } },
  { pattern: /^\/__knobs\/challenges\/([^/]+)\/consume$/, methods: { POST: consume } },
  { pattern: /^\/__knobs\/challenges\/([^/]+)\/fail$/, methods: { POST: failChallenge } },
  { pattern: /^\/__knobs\/keys$/, methods: { POST: createKey } },
  { pattern: /^\/__knobs\/keys\/([^/]+)$/, methods: { DELETE: freeKey } },
  { pattern: /^\/__knobs\/devices$/, methods: { POST: provisionDevice } },
  { pattern: /^\/__knobs\/enrollments$/, methods: { GET: listEnrollments } },
  { pattern: /^\/__knobs\/enrollments\/([^/]+)\/expire$/, methods: { POST: expireEnrollment } },
  { pattern: /^\/__knobs\/fail$/, methods: { POST: fail, DELETE: endFailures } },
  { pattern: /^\/__knobs\/delay$/, methods: { POST: delay } },
  { pattern: /^\/__knobs\/hold$/, methods: { GET: listHeld, POST: hold } },
  { pattern: /^\/__knobs\/release$/, methods: { POST: release } },
  { pattern: /^\/__knobs\/config$/, methods: { GET: showConfig, POST: configure } },
  { pattern: /^\/__knobs\/requests$/, methods: { GET: listRequests } },
  { pattern: /^\/__knobs\/outbox$/, methods: { GET: listOutbox, DELETE: clearOutbox } },
  { pattern: /^\/__knobs\/reset$/, methods: { POST: reset } },
]
