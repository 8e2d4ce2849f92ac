// The controller, as a SvelteKit endpoint: verifies the token, asks your user store, confirms at
// the service and starts the session, with the Fetch-API form of the helper.
import { handleFetchRequest } from 'service-auth/server'
import { serviceAuth, sessions, users } from '$lib/server/service-auth'
import type { RequestHandler } from './$types'

export const GET: RequestHandler = ({ request }) => {
  const { client, secret } = serviceAuth()
  return handleFetchRequest(request, {
    client,
    secret,
    findUser: (identifier) => users.get(identifier),
    startSession: (user) => {
      const id = crypto.randomUUID()
      sessions.set(id, user)
      // Secure: browsers take it from http://localhost and 127.0.0.1 too.
      return { location: '/welcome', headers: { 'Set-Cookie': `session=${id}; Path=/; HttpOnly; Secure; SameSite=Lax` } }
    },
  })
}
