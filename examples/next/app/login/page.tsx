// The login page, a server component: the key and the service's URL come from the server's
// environment at request time, and the widget renders on the server as its reserved place.
import { connection } from 'next/server'
import { serviceAuth } from '../../lib/service-auth'
import { SignIn } from './sign-in'

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ lang?: string }> }) {
  // Rendered for each request, not at build time: the environment is the running server's.
  await connection()
  const { key, serviceUrl } = serviceAuth()
  const { lang } = await searchParams
  return (
    <main>
      <h1>Sign in</h1>
      <SignIn apiKey={key} api={serviceUrl} locale={lang === 'de' ? 'de' : undefined} />
    </main>
  )
}
