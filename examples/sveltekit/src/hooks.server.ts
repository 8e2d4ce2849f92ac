// Every page: the signed-in user, if any, for the pages to read; no framing by another site
// (X-Frame-Options for browsers older than frame-ancestors); and the service's origin added to
// the Content Security Policy that svelte.config.js sets, as the widget talks to it.
import type { Handle } from '@sveltejs/kit'
import { serviceAuth, sessions } from '$lib/server/service-auth'

export const handle: Handle = async ({ event, resolve }) => {
  event.locals.user = sessions.get(event.cookies.get('session') ?? '')
  const response = await resolve(event)
  response.headers.set('X-Frame-Options', 'DENY')
  const policy = response.headers.get('Content-Security-Policy')
  if (policy) response.headers.set('Content-Security-Policy', `${policy}; connect-src 'self' ${serviceAuth().serviceUrl}`)
  return response
}
