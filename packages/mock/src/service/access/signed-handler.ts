// The gate in front of every server-side endpoint: signature (401), permission (403), then the
// key's rate limit (429), in that order, so an unsigned flood cannot spend a key's budget.
import { HttpProblem } from '@service-auth/http'
import type { Permission } from './api-keys.js'
import type { Handler, SignedHandler } from '../context.js'
import { authenticateRequest } from './request-auth.js'

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
    // The service's own public URL, never the Host the client sent: a token signed for
    // http://evil.example must not pass because its request said `Host: evil.example`.
    const key = await authenticateRequest({ req: exchange.req, rawBody: exchange.rawBody, baseUrl: context.addresses.publicUrl }, context.access.keys)
    if (permission !== ANY_KEY && !key.permissions.has(permission)) {
      throw new HttpProblem(403, `This API key may not ${PERMISSION_TEXT[permission]}.`)
    }
    context.access.rateLimiter.takeSigned(key.key)
    await handler(context, { ...exchange, key })
  }
}
