// The controller: the widget hands it the signed token. It verifies the token, asks your user
// store, confirms the sign-in at the service and starts the session.
import { handleFetchRequest } from 'service-auth/server'
import { serviceAuth, users } from '../../../lib/service-auth'
import { SESSION_COOKIE, startSession } from '../../../lib/sessions'

export function GET(request: Request): Promise<Response> {
  const { client, secret } = serviceAuth()
  return handleFetchRequest(request, {
    client,
    secret,
    findUser: (identifier) => users.get(identifier),
    startSession: (user) => ({
      location: '/welcome',
      // Secure: browsers take it from http://localhost and 127.0.0.1 too.
      headers: { 'Set-Cookie': `${SESSION_COOKIE}=${startSession(user)}; Path=/; HttpOnly; Secure; SameSite=Lax` },
    }),
  })
}
