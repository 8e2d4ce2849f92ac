// A Vue 3 page with two <ServiceAuth> components (service-auth/vue), written with render
// functions so that no compiler is needed: a reactive key, inline texts and listeners (new at each
// render), and a button that re-renders the page and then gives the first another API key.
// e2e/frameworks.spec.ts bundles it from the built package.
import { createApp, defineComponent, h, ref } from 'vue'
import { ServiceAuth } from 'service-auth/vue'

const ready: Record<string, string[]> = { first: [], second: [] }
;(window as unknown as { __ready: typeof ready }).__ready = ready

const root = document.getElementById('root')!
const { api, key: firstKey, otherKey } = root.dataset as { api: string; key: string; otherKey: string }

const App = defineComponent(() => {
  const key = ref(firstKey)
  const clicks = ref(0)
  return () =>
    h('main', [
      h('h1', 'Sign in'),
      h(ServiceAuth, {
        class: 'first',
        apiKey: key.value,
        authUrl: '/auth/controller',
        api,
        texts: { ready: 'Scan the first' },
        onReady: ({ challengeId }) => ready.first!.push(challengeId),
      }),
      h(ServiceAuth, { class: 'second', apiKey: firstKey, authUrl: '/auth/controller', api, onReady: ({ challengeId }) => ready.second!.push(challengeId) }),
      h('p', `Renders: ${clicks.value}`),
      h('button', { type: 'button', onClick: () => clicks.value++ }, 'Render again'),
      h('button', { type: 'button', onClick: () => (key.value = otherKey) }, 'Use the other key'),
    ])
})

createApp(App).mount(root)
