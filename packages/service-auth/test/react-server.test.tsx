// @vitest-environment node
// The component rendered on the server, as Next.js and other SSR frameworks do before hydration:
// no browser globals exist there, and the markup must already hold the widget's place.
import { readFile } from 'node:fs/promises'
import { renderToString } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const BROWSER_GLOBALS = ['window', 'document', 'self', 'navigator', 'location', 'matchMedia', 'addEventListener', 'localStorage', 'sessionStorage']
let touched: string[]

beforeEach(() => {
  touched = []
  // Each global is there but records a read: a `typeof window` probe counts as a touch too.
  for (const name of BROWSER_GLOBALS) {
    Object.defineProperty(globalThis, name, {
      configurable: true,
      get: () => (touched.push(name), undefined),
    })
  }
})
afterEach(() => {
  for (const name of BROWSER_GLOBALS) delete (globalThis as Record<string, unknown>)[name]
})

describe('<ServiceAuth> on the server', () => {
  it('imports and renders its element, empty (the stylesheet reserves its height), touching no browser global', async () => {
    // Imported here, so that loading the module is watched too.
    const { ServiceAuth } = await import('../src/react.js')
    const html = renderToString(
      <ServiceAuth
        apiKey="pk_test_123"
        authUrl="/auth/controller"
        api="https://api.example"
        className="login"
        style={{ marginTop: 8 }}
        onSuccess={() => false}
        texts={{ ready: 'Scan' }}
      />,
    )
    expect(html).toBe('<div data-service-auth="" class="login" style="margin-top:8px"></div>')
    expect(touched).toEqual([])
  })

  it('relies on a rule the stylesheet has: an empty [data-service-auth] is as tall as the widget', async () => {
    const css = await readFile(new URL('../src/style.css', import.meta.url), 'utf8')
    expect(css).toMatch(/\[data-service-auth\]:empty::before[^{]*\{[^}]*height:\s*calc\(var\(--sa-size, 200px\) \+ 50px \+ 4lh\)/)
  })
})
