// The protected page: only a signed-in user sees it.
import { cookies } from 'next/headers'
import { redirect } from 'next/navigation'
import { findSession, SESSION_COOKIE } from '../../lib/sessions'

export default async function WelcomePage() {
  const user = findSession((await cookies()).get(SESSION_COOKIE)?.value)
  if (!user) redirect('/login')
  return (
    <main>
      <h1>Signed in as {user.name}</h1>
      <form method="post" action="/logout">
        <button type="submit">Sign out</button>
      </form>
    </main>
  )
}
