// POST /v1/entity/challenges: the embed asks for a challenge to show (spec section 4, "Create
// challenge"). Browser-facing and unsigned, so the API key and the page's Origin are what is checked.
import { FieldValidator, HttpProblem, parseJsonObject, sendJson } from '@service-auth/http'
import { challengePng, imageUrl } from './challenge-image.js'
import type { Challenge } from './challenge-store.js'
import { POLL_SECRET_PARAM } from './challenge-status.js'
import { isOriginAllowed } from '../access/api-keys.js'
import { clientAddress } from '../access/client-address.js'
import type { Handler } from '../context.js'
import type { ChallengeJson } from 'service-auth'
import { IMAGE_KINDS } from './qr-images.js'
import { toTimestamp } from '../timestamps.js'

/**
 * Where the creating browser reads the challenge's answers: the id's URL plus the polling secret,
 * which only this creation answer carries (the QR code names the id alone).
 */
const answerUrl = (serviceUrl: string, challenge: Challenge, endpoint: 'status' | 'token') =>
  `${serviceUrl}/v1/entity/challenges/${encodeURIComponent(challenge.id)}/${endpoint}?${POLL_SECRET_PARAM}=${challenge.pollSecret}`

// The spec names `web`; the incumbent embed sends `jwt` by default. Both get the same signed token.
const AUTH_TYPES = ['web', 'jwt'] as const

export const createChallenge: Handler = async (context, { req, res, body }) => {
  const fields = new FieldValidator(parseJsonObject(body, req.headers['content-type']))
  const keyName = fields.requiredString('key', { maxLength: 256 })
  const returnAuthImageData = fields.boolean('returnAuthImageData') ?? false
  const authType = fields.choice('authType', AUTH_TYPES) ?? 'web'
  fields.check()

  // The key is public (it is in the page), so it is checked against where the page comes from.
  const key = context.access.keys.get(keyName)
  if (!key) throw new HttpProblem(403, 'The API key is not known.')
  if (!key.permissions.has('challenges')) throw new HttpProblem(403, 'This API key may not create challenges.')
  const origin = req.headers.origin
  if (!isOriginAllowed(origin, key.allowedOrigins)) {
    throw new HttpProblem(403, `The origin ${origin} may not use this API key.`)
  }
  // Its own budget per key and address: anonymous traffic cannot spend the integrator's signed calls.
  const address = clientAddress(req, context.access.clientAddressHeader)
  context.access.rateLimiter.takeBrowser(key.key, address)

  // A key may have a lifetime of its own (see hooks.ts).
  const ttlMs = context.hooks.challengeLifetime(key.key) ?? context.settings.challengeTtlMs
  const challenge = context.stores.challenges.create(ttlMs, {
    app: key.app,
    key: key.key,
    authType,
    // Who asked: the sign-in session a confirmation may start describes this browser.
    // The User-Agent only as long as any real one: it is matched against patterns later.
    browser: { ip: address || null, userAgent: req.headers['user-agent']?.slice(0, 512) ?? null },
  })
  sendJson(res, 201, await describe(challenge, context.addresses.publicUrl, returnAuthImageData))
}

/** The Challenge object of spec section 2, as the embed reads it (one definition: src/wire/challenge.ts). */
async function describe(challenge: Challenge, serviceUrl: string, withImageData: boolean): Promise<ChallengeJson> {
  const id = encodeURIComponent(challenge.id)
  const authImagesData = withImageData
    ? Object.fromEntries(await Promise.all(IMAGE_KINDS.map(async (kind) => [kind, (await challengePng(challenge, kind, serviceUrl)).toString('base64')])))
    : undefined
  return {
    id: challenge.id,
    createdAt: toTimestamp(challenge.createdAt),
    expiresAt: toTimestamp(challenge.expiresAt),
    authType: challenge.authType,
    authImages: Object.fromEntries(IMAGE_KINDS.map((kind) => [kind, imageUrl(serviceUrl, challenge.id, kind)])),
    ...(authImagesData ? { authImagesData } : {}),
    pollingUrl: answerUrl(serviceUrl, challenge, 'status'),
    // The status answer without the hold: for clients that learn of the signature another way.
    authTokenUrl: answerUrl(serviceUrl, challenge, 'token'),
    // Work in progress in the spec too; nothing listens here.
    socketsUrl: `${serviceUrl.replace(/^http/, 'ws')}/v1/entity/challenges/${id}/socket`,
  }
}
