// The rules for identity fields, shared by enroll, create, update and rename, so an identifier
// valid in one request is valid in all of them.
import { type FieldValidator, HttpProblem } from '@service-auth/http'
import type { SignedExchange, ServiceContext } from '../context.js'
import type { Identity } from './identity-store.js'

// Control characters are refused: identifiers end up in URLs, tokens and e-mails.
const IDENTIFIER_RULES = { maxLength: 255, printable: true }

/** Symfony's convention, which the service's default ROLE_USER follows. */
const ROLE_RULES = {
  maxLength: 64,
  pattern: {
    regex: /^ROLE_[A-Z0-9_]+$/,
    kind: 'patternMismatch' as const,
    message: 'This value should start with ROLE_ and contain only A-Z, 0-9 and _.',
  },
}

export const readIdentifier = (fields: FieldValidator, field = 'identifier'): string | undefined => fields.requiredString(field, IDENTIFIER_RULES)

export const readNickname = (fields: FieldValidator): string | null | undefined => fields.nullableString('nickname', { maxLength: 255, printable: true })

export const readRole = (fields: FieldValidator): string | undefined => fields.string('role', ROLE_RULES)

/** A free identifier, or a 400 naming `field` when another identity of the app has it. */
export function checkIdentifierFree(context: ServiceContext, app: string, identifier: string | undefined, field: string, fields: FieldValidator): void {
  if (identifier !== undefined && context.stores.identities.get(app, identifier)) {
    fields.add(field, 'notUnique', 'This identifier is already used by another identity.')
  }
}

/** The identity named by the path, in the signing key's app; 404 when there is none. */
export function identityInPath(context: ServiceContext, exchange: SignedExchange): Identity {
  const identity = identityNamedInPath(context, exchange)
  if (!identity) throw new HttpProblem(404, 'There is no identity with this identifier.')
  return identity
}

/**
 * The identity the path's identifier names, as written or else with `+` read as a space: PHP's
 * `urlencode` writes a space as `+` (and a real `+` as %2B), while the Node client writes a
 * `+` into the path as it is, so both readings are tried, the literal one first.
 */
export function identityNamedInPath(context: ServiceContext, { key, params }: SignedExchange): Identity | undefined {
  const written = params[0] ?? ''
  return (
    context.stores.identities.get(key.app, written) ?? (written.includes('+') ? context.stores.identities.get(key.app, written.replace(/\+/g, ' ')) : undefined)
  )
}
