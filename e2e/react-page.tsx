// A React 19 page as an integrator writes it, under StrictMode (whose development build mounts,
// destroys and mounts each effect again): two widgets, a button that removes the second, and an
// app that takes over navigation after sign-in. e2e/react.spec.ts bundles it with esbuild, from
// the built package (service-auth/react and service-auth, resolved by the package's own name).
//
// It records what the test checks in window.__page: every request the page makes (fetch wrapped
// before anything mounts), which code each widget showed, and when the second was removed.
import { StrictMode, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { ServiceAuth } from 'service-auth/react'

export interface PageRecord {
  requests: { method: string; url: string; at: number }[]
  ready: { first: string[]; second: string[] }
  renders: number
  removedAt?: number
  success?: string
}

const record: PageRecord = { requests: [], ready: { first: [], second: [] }, renders: 0 }
;(window as unknown as { __page: PageRecord }).__page = record

const pageFetch = window.fetch
window.fetch = (input, init) => {
  record.requests.push({ method: init?.method ?? 'GET', url: String(input), at: performance.now() })
  return pageFetch(input, init)
}

function App({ api, apiKey }: { api: string; apiKey: string }) {
  const [second, setSecond] = useState(true)
  const [signedIn, setSignedIn] = useState<string>()
  record.renders++
  return (
    <main>
      <h1>Sign in</h1>
      {/* Inline callbacks, new on every render of App: they must not restart the widget. */}
      <ServiceAuth
        apiKey={apiKey}
        authUrl="/auth/controller"
        api={api}
        className="first"
        onReady={({ challengeId }) => record.ready.first.push(challengeId)}
        onSuccess={({ location }) => {
          record.success = location
          setSignedIn(location ?? '')
          return false
        }}
      />
      {second && (
        <ServiceAuth
          apiKey={apiKey}
          authUrl="/auth/controller"
          api={api}
          className="second"
          onReady={({ challengeId }) => record.ready.second.push(challengeId)}
        />
      )}
      <button
        type="button"
        onClick={() => {
          // Set before the update: React commits a click's update before this task ends, so no
          // request of the second widget's can start in between.
          record.removedAt = performance.now()
          setSecond(false)
        }}
      >
        Remove the second
      </button>
      {signedIn !== undefined && <p>The app takes over: next is {signedIn}</p>}
    </main>
  )
}

const root = document.getElementById('root')!
createRoot(root).render(
  <StrictMode>
    <App api={root.dataset.api!} apiKey={root.dataset.key!} />
  </StrictMode>,
)
