// The controller each runtime serves (server-runtimes.test.ts): service-auth/server imported by its
// published name, so each runtime loads the built package; a user store that knows Ada, and a
// session cookie. Web standards only, as on every runtime the README's table names.
import { createClient, handleFetchRequest } from 'service-auth/server'

/** A fetch handler for `/auth/controller`, set up from the three values the README's snippets read. */
export function controller({ SERVICE_URL, SERVICE_KEY, SERVICE_SECRET }) {
  const client = createClient({ baseUrl: SERVICE_URL, key: SERVICE_KEY, secret: SERVICE_SECRET })
  const users = new Map([['ada@example.com', { id: 1 }]])
  return (request) => {
    if (new URL(request.url).pathname !== '/auth/controller') return new Response('Not found', { status: 404 })
    return handleFetchRequest(request, {
      client,
      secret: SERVICE_SECRET,
      findUser: (identifier) => users.get(identifier),
      startSession: (user) => ({
        location: '/welcome',
        headers: { 'Set-Cookie': `session=${user.id}-${crypto.randomUUID()}; Path=/; HttpOnly; SameSite=Lax` },
      }),
    })
  }
}
