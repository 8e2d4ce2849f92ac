// The gate in front of every server-side endpoint: signature (401), permission (403), then the
// key's rate limit (429), in that order, so an unsigned flood cannot spend a key's budget.
import type { IncomingMessage } from 'node:http'
import { HttpProblem } from '../common/problem.ts'
import type { Permission } from './api-keys.ts'
import type { Handler, ServiceContext, SignedHandler } from './context.ts'
import { authenticateRequest } from './request-auth.ts'

const PERMISSION_TEXT: Record<Permission, string> = {
  challenges: 'create challenges',
  enroll: 'enroll identities',
  'identities:read': 'read identities',
  'identities:write': 'change identities',
  authenticate: 'confirm authentications',
  configuration: 'change the configuration',
  sessions: 'read or end sessions',
}

/** For the endpoints any valid key may call. */
export const ANY_KEY = null

/** Wraps a handler so it runs only for a request signed by a key with `permission`. */
export function signed(permission: Permission | typeof ANY_KEY, handler: SignedHandler): Handler {
  return async (context, exchange) => {
    const baseUrls = acceptedBaseUrls(context, exchange.req)
    const key = await authenticateRequest({ req: exchange.req, rawBody: exchange.rawBody, baseUrls }, context.keys)
    if (permission !== ANY_KEY && !key.permissions.has(permission)) {
      throw new HttpProblem(403, `This API key may not ${PERMISSION_TEXT[permission]}.`)
    }
    context.rateLimiter.take(key.key)
    await handler(context, { ...exchange, key })
  }
}

/**
 * What aud and url may name. Configured: that base URL only, as behind a proxy. Otherwise the
 * address listened on and the Host the client used, so `localhost` works as well as 127.0.0.1.
 * Host is the client's word, but so is the whole token: it only has to agree with itself.
 */
function acceptedBaseUrls(context: ServiceContext, req: IncomingMessage): string[] {
  if (context.baseUrl) return [context.baseUrl]
  const host = req.headers.host
  return host && /^[A-Za-z0-9.:[\]-]+$/.test(host) ? [context.url, `http://${host}`] : [context.url]
}
