// A React 19 page under StrictMode (whose development build runs each effect twice) with two
// <service-auth> elements, as an integrator writes it: the element typed in JSX by
// service-auth/element/react, an event prop, `texts` as a property, and a button that gives the
// first element another API key. e2e/frameworks.spec.ts bundles it from the built package.
import { StrictMode, useState } from 'react'
import { createRoot } from 'react-dom/client'
import 'service-auth/element/react'

const ready: Record<string, string[]> = { first: [], second: [] }
;(window as unknown as { __ready: typeof ready }).__ready = ready

function App({ api, keys }: { api: string; keys: [string, string] }) {
  const [key, setKey] = useState(keys[0])
  return (
    <main>
      <h1>Sign in</h1>
      <service-auth
        className="first"
        api-key={key}
        auth-url="/auth/controller"
        api={api}
        texts={{ ready: 'Scan the first' }}
        onservice-auth-ready={(event) => ready.first!.push(event.detail.challengeId)}
      />
      <service-auth
        className="second"
        api-key={keys[0]}
        auth-url="/auth/controller"
        api={api}
        onservice-auth-ready={(event) => ready.second!.push(event.detail.challengeId)}
      />
      <button type="button" onClick={() => setKey(keys[1])}>
        Use the other key
      </button>
    </main>
  )
}

const root = document.getElementById('root')!
createRoot(root).render(
  <StrictMode>
    <App api={root.dataset.api!} keys={[root.dataset.key!, root.dataset.otherKey!]} />
  </StrictMode>,
)
