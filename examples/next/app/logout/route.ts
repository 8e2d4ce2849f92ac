import { cookies } from 'next/headers'
import { endSession, SESSION_COOKIE } from '../../lib/sessions'

export async function POST(): Promise<Response> {
  const jar = await cookies()
  endSession(jar.get(SESSION_COOKIE)?.value)
  jar.delete(SESSION_COOKIE)
  // 303: the browser follows with a GET. A path, as the browser resolves it against the page's own origin.
  return new Response(null, { status: 303, headers: { Location: '/login' } })
}
