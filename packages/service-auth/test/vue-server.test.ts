// @vitest-environment node
// The Vue component rendered on the server (Nuxt, or Vue's own SSR) before hydration: no browser
// global exists there, and the markup must already hold the widget's place, as React's does.
import { createSSRApp, h } from 'vue'
import { renderToString } from 'vue/server-renderer'
import { describe, expect, it } from 'vitest'
import { ServiceAuth } from '../src/vue.js'

describe('<ServiceAuth> for Vue on the server', () => {
  it('renders the placeholder element that the React component renders (an empty attribute, as HTML writes it)', async () => {
    const html = await renderToString(
      createSSRApp({ render: () => h(ServiceAuth, { apiKey: 'k', authUrl: '/auth/controller', api: 'https://api.example', class: 'login' }) }),
    )
    expect(html).toBe('<div data-service-auth class="login"></div>')
  })
})
