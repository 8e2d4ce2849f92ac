// The /__knobs/ endpoints: how tests decide when a phone signs, when a challenge expires and
// when the service fails or dawdles, instead of waiting on real time.
import { FieldValidator } from '../common/field-validator.ts'
import { HttpProblem } from '../common/problem.ts'
import { parseJsonObject } from '../common/read-body.ts'
import type { Route } from '../common/router.ts'
import { sendEmpty, sendJson } from '../common/respond.ts'
import { signAuthToken } from './auth-token.ts'
import type { Challenge } from './challenge-store.ts'
import type { Exchange, Handler, ServiceContext } from './context.ts'
import { RULE_MATCHES } from './fault-rules.ts'
import { toTimestamp } from './timestamps.ts'

const DEFAULT_IDENTIFIER = 'user@example.com'
// setTimeout's ceiling is about 24.8 days; a day is more than any test needs.
const MAX_MS = 86_400_000

/** The body's fields, validated against `known`; an empty body counts as `{}`. */
function fieldsOf({ req, body }: Exchange, known: readonly string[]): FieldValidator {
  const fields = new FieldValidator(parseJsonObject(body, req.headers['content-type'], { allowEmpty: true }))
  fields.onlyKnown(known)
  return fields
}

function challengeFor(context: ServiceContext, id: string | undefined): Challenge {
  const challenge = context.store.get(id ?? '')
  if (!challenge) throw new HttpProblem(404, 'There is no challenge with this id.')
  return challenge
}

const conflict = (challenge: Challenge) => new HttpProblem(409, `The challenge is ${challenge.state}.`)

/** What the phone app does: sign the challenge. Signing a signed challenge again returns its token. */
const sign: Handler = async (context, exchange) => {
  const fields = fieldsOf(exchange, ['identifier'])
  const identifier = fields.string('identifier', { maxLength: 320, printable: true }) ?? DEFAULT_IDENTIFIER
  if (identifier === '') fields.add('identifier', 'isBlank', 'This value should not be blank.')
  fields.check()
  const challenge = challengeFor(context, exchange.params[0])
  if (challenge.state === 'pending') {
    const token = await signAuthToken({ challengeId: challenge.id, identifier, issuer: context.url }, context.secret)
    // Signing is asynchronous: only the first of two racing sign requests wins, and expiry may come between.
    if (challenge.state === 'pending' && context.store.get(challenge.id) === challenge) context.store.sign(challenge, token)
  }
  if (challenge.state !== 'signed') throw conflict(challenge)
  sendJson(exchange.res, 200, { token: challenge.token })
}

const expire: Handler = (context, exchange) => {
  fieldsOf(exchange, []).check()
  const challenge = challengeFor(context, exchange.params[0])
  if (challenge.state === 'consumed') throw conflict(challenge)
  context.store.expire(challenge.id)
  sendEmpty(exchange.res, 204)
}

/** What a successful authenticate call does to the challenge. */
const consume: Handler = (context, exchange) => {
  fieldsOf(exchange, []).check()
  const challenge = challengeFor(context, exchange.params[0])
  if (challenge.state === 'expired') throw conflict(challenge)
  if (challenge.state !== 'consumed') context.store.consume(challenge)
  sendEmpty(exchange.res, 204)
}

const fail: Handler = (context, exchange) => {
  const fields = fieldsOf(exchange, ['status', 'count', 'match', 'retryAfter', 'body', 'contentType', 'network'])
  const status = fields.integer('status', 200, 599, { required: true })
  const count = fields.integer('count', 1, 1000) ?? 1
  const match = fields.choice('match', RULE_MATCHES) ?? 'any'
  // These two become header values: control characters would make Node throw.
  const retryAfter = fields.string('retryAfter', { maxLength: 100, printable: true })
  const contentType = fields.string('contentType', { maxLength: 200, printable: true })
  const body = fields.string('body')
  const network = fields.boolean('network') ?? false
  fields.check()
  context.failRules.add({ status: status!, count, match, retryAfter, body, contentType, network })
  sendEmpty(exchange.res, 204)
}

const delay: Handler = (context, exchange) => {
  const fields = fieldsOf(exchange, ['ms', 'count', 'match'])
  const ms = fields.integer('ms', 0, MAX_MS, { required: true })
  const count = fields.integer('count', 1, 1000) ?? 1
  const match = fields.choice('match', RULE_MATCHES) ?? 'any'
  fields.check()
  context.delayRules.add({ ms: ms!, count, match })
  sendEmpty(exchange.res, 204)
}

const configure: Handler = (context, exchange) => {
  const fields = fieldsOf(exchange, ['holdMs', 'challengeTtlMs'])
  const holdMs = fields.integer('holdMs', 0, MAX_MS)
  const challengeTtlMs = fields.integer('challengeTtlMs', 1, MAX_MS)
  fields.check()
  if (holdMs !== undefined) context.settings.holdMs = holdMs
  if (challengeTtlMs !== undefined) context.settings.challengeTtlMs = challengeTtlMs
  sendJson(exchange.res, 200, context.settings)
}

const showConfig: Handler = (context, { res }) => sendJson(res, 200, context.settings)

const listChallenges: Handler = (context, { res }) =>
  sendJson(
    res,
    200,
    context.store.list().map((challenge) => ({
      id: challenge.id,
      state: challenge.state,
      createdAt: toTimestamp(challenge.createdAt),
      expiresAt: toTimestamp(challenge.expiresAt),
      polls: challenge.polls,
    })),
  )

const listRequests: Handler = (context, { res }) => sendJson(res, 200, context.log.entries())

const reset: Handler = (context, exchange) => {
  fieldsOf(exchange, []).check()
  context.store.clear()
  context.failRules.clear()
  context.delayRules.clear()
  context.log.clear()
  Object.assign(context.settings, context.defaults)
  sendEmpty(exchange.res, 204)
}

export const KNOB_ROUTES: Route<Handler>[] = [
  { pattern: /^\/__knobs\/challenges$/, methods: { GET: listChallenges } },
  { pattern: /^\/__knobs\/challenges\/([^/]+)\/sign$/, methods: { POST: sign } },
  { pattern: /^\/__knobs\/challenges\/([^/]+)\/expire$/, methods: { POST: expire } },
  { pattern: /^\/__knobs\/challenges\/([^/]+)\/consume$/, methods: { POST: consume } },
  { pattern: /^\/__knobs\/fail$/, methods: { POST: fail } },
  { pattern: /^\/__knobs\/delay$/, methods: { POST: delay } },
  { pattern: /^\/__knobs\/config$/, methods: { GET: showConfig, POST: configure } },
  { pattern: /^\/__knobs\/requests$/, methods: { GET: listRequests } },
  { pattern: /^\/__knobs\/reset$/, methods: { POST: reset } },
]
