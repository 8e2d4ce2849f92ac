// The identity endpoints (spec section 4): create, retrieve, update, list, delete, and rename,
// whose method and path the spec leaves open: the official clients send PATCH
// /v1/entity/identities/{identifier}/rename, and POST is kept for callers of the mock's first form.
// Each request kind validates its whole input in one function before anything changes.
import { FieldValidator, parseJsonObject, sendEmpty, sendJson } from '@service-auth/http'
import type { SignedExchange, SignedHandler } from '../context.js'
import { checkIdentifierFree, identityInPath, readIdentifier, readNickname, readRole } from './identity-fields.js'
import { identityJson } from './identity-json.js'
import type { IdentityChanges } from './identity-store.js'

// The official clients read the whole list from one GET without a query, so the default page is
// the largest; a longer list is paged, and the Link header says so.
export const MAX_PAGE_SIZE = 1000
export const DEFAULT_PAGE_SIZE = MAX_PAGE_SIZE

const bodyFields = ({ req, body }: SignedExchange) => new FieldValidator(parseJsonObject(body, req.headers['content-type']))

/** POST /v1/entity/identities: 201 with the new identity; 400 when the identifier is taken. */
export const createIdentity: SignedHandler = (context, exchange) => {
  const fields = bodyFields(exchange)
  const identifier = readIdentifier(fields)
  const changes: IdentityChanges = { nickname: readNickname(fields), role: readRole(fields), locked: fields.boolean('locked') }
  checkIdentifierFree(context, exchange.key.app, identifier, 'identifier', fields)
  fields.check()
  const identity = context.stores.identities.create(exchange.key.app, identifier!, changes)
  sendJson(exchange.res, 201, identityJson(identity, context.stores.sessions))
}

/** GET /v1/entity/identities/{identifier} */
export const retrieveIdentity: SignedHandler = (context, exchange) => {
  sendJson(exchange.res, 200, identityJson(identityInPath(context, exchange), context.stores.sessions))
}

/**
 * POST /v1/entity/identities/{identifier}: changes nickname, role and locked; absent fields stay.
 * A different identifier in the body is refused rather than ignored: that is what rename is for.
 */
export const updateIdentity: SignedHandler = (context, exchange) => {
  const identity = identityInPath(context, exchange)
  const fields = bodyFields(exchange)
  const changes: IdentityChanges = { nickname: readNickname(fields), role: readRole(fields), locked: fields.boolean('locked') }
  const identifier = fields.string('identifier')
  if (identifier !== undefined && identifier !== identity.identifier) {
    fields.add('identifier', 'noSuchField', 'Use POST /v1/entity/identities/{identifier}/rename to change the identifier.')
  }
  fields.check()
  context.stores.identities.update(identity, changes)
  sendJson(exchange.res, 200, identityJson(identity, context.stores.sessions))
}

/** PATCH (or POST) /v1/entity/identities/{identifier}/rename `{identifier}`: 200 with the renamed identity. */
export const renameIdentity: SignedHandler = (context, exchange) => {
  const identity = identityInPath(context, exchange)
  const fields = bodyFields(exchange)
  const identifier = readIdentifier(fields)
  if (identifier !== identity.identifier) checkIdentifierFree(context, exchange.key.app, identifier, 'identifier', fields)
  fields.check()
  context.stores.identities.rename(identity, identifier!)
  sendJson(exchange.res, 200, identityJson(identity, context.stores.sessions))
}

/** DELETE /v1/entity/identities/{identifier}: 204; the identifier can no longer authenticate, and its sessions end. */
export const deleteIdentity: SignedHandler = (context, exchange) => {
  const identity = identityInPath(context, exchange)
  context.stores.identities.delete(identity)
  context.stores.sessions.endAllOf(identity.id)
  sendEmpty(exchange.res, 204)
}

/**
 * GET /v1/entity/identities?page=1&limit=1000: one page as a bare array of Identity, in creation
 * order, which is what the official clients parse. The totals go in headers: X-Total-Count, and
 * a Link header (RFC 8288) with first, prev, next and last.
 */
export const listIdentities: SignedHandler = (context, exchange) => {
  const { page, limit } = readListQuery(exchange.url.searchParams)
  const identities = context.stores.identities.list(exchange.key.app)
  const pages = Math.max(1, Math.ceil(identities.length / limit))
  const items = identities.slice((page - 1) * limit, page * limit).map((identity) => identityJson(identity, context.stores.sessions))
  sendJson(exchange.res, 200, items, {
    'X-Total-Count': String(identities.length),
    Link: pageLinks(`${context.addresses.publicUrl}/v1/entity/identities`, page, pages, limit),
  })
}

function pageLinks(listUrl: string, page: number, pages: number, limit: number): string {
  const link = (to: number, rel: string) => `<${listUrl}?page=${to}&limit=${limit}>; rel="${rel}"`
  const links = [link(1, 'first')]
  if (page > 1) links.push(link(Math.min(page - 1, pages), 'prev'))
  if (page < pages) links.push(link(page + 1, 'next'))
  links.push(link(pages, 'last'))
  return links.join(', ')
}

function readListQuery(query: URLSearchParams): { page: number; limit: number } {
  // Digits become numbers; anything else stays text, which the validator calls the wrong type.
  const numeric = (name: string) => {
    const text = query.get(name)
    return text === null ? undefined : /^\d{1,9}$/.test(text) ? Number(text) : text
  }
  const fields = new FieldValidator({ page: numeric('page'), limit: numeric('limit') })
  const page = fields.integer('page', 1, 1_000_000) ?? 1
  const limit = fields.integer('limit', 1, MAX_PAGE_SIZE) ?? DEFAULT_PAGE_SIZE
  fields.check()
  return { page, limit }
}
