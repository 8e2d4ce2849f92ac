// The /v1/ API (spec section 4) at a glance: each endpoint, whether browsers call it, and the
// permission a signed request needs (spec section 5). Order matters: the first match wins.
import { authenticate } from './authenticate.ts'
import { serveChallengeImage } from './challenge-image.ts'
import { checkChallengeStatus, fetchChallengeToken } from './challenge-status.ts'
import type { ApiRoute } from './context.ts'
import { createChallenge } from './create-challenge.ts'
import { enroll } from './enroll.ts'
import { createIdentity, deleteIdentity, listIdentities, renameIdentity, retrieveIdentity, updateIdentity } from './identities.ts'
import { signed } from './signed-handler.ts'

const retrieve = signed('identities:read', retrieveIdentity)
const remove = signed('identities:write', deleteIdentity)

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
    methods: { POST: signed('identities:write', renameIdentity) },
  },
  {
    pattern: /^\/v1\/entity\/identities\/([^/]+)$/,
    kind: 'identities',
    browserFacing: false,
    methods: { GET: retrieve, POST: signed('identities:write', updateIdentity), DELETE: remove },
  },
]
