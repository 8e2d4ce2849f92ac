// Shared reading of knob requests: strict bodies (a typo is a 400, not a silently ignored field),
// the API key a knob is limited to, and the challenge a knob path names.
import { FieldValidator, fieldProblem, HttpProblem, parseJsonObject } from '@service-auth/http'
import type { Challenge } from '../service/challenges/challenge-store.js'
import type { Exchange } from '../service/context.js'
import type { KnobContext } from './knob-context.js'

/**
 * The field names of a knob's body, from its type: written as `{ name: true, ... }`, so that a
 * field the type has and the list lacks, or the reverse, is a type error. The body types are what
 * the knob client (`@service-auth/mock/knobs`) sends, so the two cannot drift.
 */
export const fieldsOf = <Body>(fields: Record<keyof Body, true>): string[] => Object.keys(fields)

/** The body's fields, validated against `known`; an empty body counts as `{}`. */
export function knobFields({ req, body }: Exchange, known: readonly string[]): FieldValidator {
  const fields = new FieldValidator(parseJsonObject(body, req.headers['content-type'], { allowEmpty: true }))
  fields.onlyKnown(known)
  return fields
}

/**
 * The `key` field: the knob acts on this API key's requests and challenges only. Absent, it acts
 * on every key's, as the knobs did before keys could be named. A key the service does not know
 * is a 400, since a rule for it would never match.
 */
export function keyField(fields: FieldValidator, context: KnobContext): string | undefined {
  const key = fields.string('key', { maxLength: 200 })
  if (key !== undefined && !context.service.access.keys.get(key)) fields.add('key', 'notAValidChoice', `There is no API key ${key}.`)
  return key
}

/** The `?key=` of a listing knob, checked as the `key` field is. */
export function keyParam(context: KnobContext, url: URL): string | undefined {
  const key = url.searchParams.get('key') ?? undefined
  if (key !== undefined && !context.service.access.keys.get(key)) throw fieldProblem('key', 'notAValidChoice', `There is no API key ${key}.`)
  return key
}

/** The challenge the path names; with `key`, only one of that key's (another key's is a 404, as for a test of its own). */
export function challengeFor(context: KnobContext, id: string | undefined, key?: string): Challenge {
  const challenge = context.service.stores.challenges.get(id ?? '')
  if (!challenge) throw new HttpProblem(404, 'There is no challenge with this id.')
  if (key !== undefined && challenge.key !== key) throw new HttpProblem(404, `The challenge is not one of the API key ${key}'s.`)
  return challenge
}

export const conflict = (challenge: Challenge) => new HttpProblem(409, `The challenge is ${challenge.state}.`)

/** The fields of a failure rule, shared by /__knobs/fail and the per-challenge fail knob. */
export function readFailFields(fields: FieldValidator, { statusRequired }: { statusRequired: boolean }) {
  const status = fields.integer('status', 200, 599, { required: statusRequired })
  const count = fields.integer('count', 1, 1000) ?? 1
  // These three become header values, where Node throws on control and non-ASCII characters.
  const retryAfter = fields.string('retryAfter', { maxLength: 100, headerValue: true })
  const contentType = fields.string('contentType', { maxLength: 200, headerValue: true })
  const location = fields.string('location', { maxLength: 2000, headerValue: true })
  const body = fields.string('body')
  const network = fields.boolean('network') ?? false
  return { status, count, retryAfter, contentType, location, body, network }
}
