'use client'
// The widget, with the callbacks that need the browser. A German visitor gets German: the
// language pack adds its texts when imported, on the server render as in the browser.
import { useState } from 'react'
import { ServiceAuth } from 'service-auth/react'
import 'service-auth/languages/de.js'

export function SignIn({ apiKey, api, locale }: { apiKey: string; api: string; locale?: string }) {
  const [problem, setProblem] = useState<string>()
  return (
    <>
      {/* The widget goes where the controller says (/welcome) and loads it afresh, with the session. */}
      <ServiceAuth
        apiKey={apiKey}
        authUrl="/auth/controller"
        api={api}
        locale={locale}
        onReady={() => setProblem(undefined)}
        onError={({ reason }) => reason === 'controller' && setProblem('This account may not sign in here.')}
      />
      {problem && <p role="alert">{problem}</p>}
    </>
  )
}
