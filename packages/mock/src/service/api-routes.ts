// The /v1/ API (spec section 4) at a glance: each endpoint, whether browsers call it, and the
// permission a signed request needs (spec section 5). Order matters: the first match wins.
import { authenticate } from './challenges/authenticate.js'
import { serveChallengeImage } from './challenges/challenge-image.js'
import { checkChallengeStatus, fetchChallengeToken } from './challenges/challenge-status.js'
import type { ApiRoute } from './context.js'
import { createChallenge } from './challenges/create-challenge.js'
import { enroll } from './enrollments/enroll.js'
import { createIdentity, deleteIdentity, listIdentities, renameIdentity, retrieveIdentity, updateIdentity } from './identities/identities.js'
import { check } from './access/check.js'
import { showConfiguration, updateConfiguration } from './configuration/configuration.js'
import { deleteDevice } from './devices/devices.js'
import { listSessions, logoutSession, retrieveSession, updateSessions } from './sessions/sessions.js'
import { ANY_KEY, signed } from './access/signed-handler.js'

const retrieve = signed('identities:read', retrieveIdentity)
const remove = signed('identities:write', deleteIdentity)
const rename = signed('identities:write', renameIdentity)

export const API_ROUTES: ApiRoute[] = [
  // Browser-facing and unsigned: the embed calls these from the integrator's pages.
  { pattern: /^\/v1\/entity\/challenges$/, kind: 'create', browserFacing: true, methods: { POST: createChallenge } },
  { pattern: /^\/v1\/entity\/challenges\/([^/]+)\/status$/, kind: 'status', browserFacing: true, methods: { GET: checkChallengeStatus } },
  { pattern: /^\/v1\/entity\/challenges\/([^/]+)\/token$/, kind: 'token', browserFacing: true, methods: { GET: fetchChallengeToken } },
  // Not in the spec: authImages names URLs, and an <img> cannot sign its request.
  { pattern: /^\/v1\/entity\/challenges\/([^/]+)\/images\/([^/]+)$/, kind: 'image', browserFacing: true, methods: { GET: serveChallengeImage } },

  // Server-side and signed.
  {
    pattern: /^\/v1\/entity\/identities\/(enroll)$/,
    kind: 'enroll',
    browserFacing: false,
    // An identity called "enroll" can still be read and deleted; POST here always enrolls.
    methods: { POST: signed('enroll', enroll), GET: retrieve, DELETE: remove },
  },
  {
    pattern: /^\/v1\/entity\/identities$/,
    kind: 'identities',
    browserFacing: false,
    methods: { GET: signed('identities:read', listIdentities), POST: signed('identities:write', createIdentity) },
  },
  {
    pattern: /^\/v1\/entity\/identities\/([^/]+)\/authenticate$/,
    kind: 'authenticate',
    browserFacing: false,
    methods: { POST: signed('authenticate', authenticate) },
  },
  {
    pattern: /^\/v1\/entity\/identities\/([^/]+)\/rename$/,
    kind: 'identities',
    browserFacing: false,
    // The official clients send PATCH; POST was the mock's first guess and stays for its callers.
    methods: { PATCH: rename, POST: rename },
  },
  {
    pattern: /^\/v1\/entity\/identities\/([^/]+)$/,
    kind: 'identities',
    browserFacing: false,
    methods: { GET: retrieve, POST: signed('identities:write', updateIdentity), DELETE: remove },
  },

  // Not in the spec, but every official client calls them.
  { pattern: /^\/v1\/entity\/check$/, kind: 'check', browserFacing: false, methods: { POST: signed(ANY_KEY, check) } },
  {
    pattern: /^\/v1\/entity\/configuration$/,
    kind: 'configuration',
    browserFacing: false,
    methods: { GET: signed(ANY_KEY, showConfiguration), PATCH: signed('configuration', updateConfiguration) },
  },
  // Devices are called tokens on the wire (Identity.tokens).
  { pattern: /^\/v1\/entity\/tokens\/([^/]+)$/, kind: 'devices', browserFacing: false, methods: { DELETE: signed('identities:write', deleteDevice) } },
  {
    pattern: /^\/v1\/entity\/sessions$/,
    kind: 'sessions',
    browserFacing: false,
    methods: { GET: signed('sessions', listSessions), PATCH: signed('sessions', updateSessions) },
  },
  {
    pattern: /^\/v1\/entity\/sessions\/([^/]+)$/,
    kind: 'sessions',
    browserFacing: false,
    methods: { GET: signed('sessions', retrieveSession), DELETE: signed('sessions', logoutSession) },
  },
]
