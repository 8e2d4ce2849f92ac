// @vitest-environment node
// service-auth/element imported on a server, as a framework's server render evaluates a page's
// imports (SvelteKit, Nuxt, Next.js): there is no DOM there, and nothing may throw or be defined.
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'

describe('service-auth/element on a server', () => {
  it('imports without a DOM, defines nothing and throws nothing', async () => {
    expect(typeof HTMLElement).toBe('undefined')
    expect(typeof customElements).toBe('undefined')
    const { ServiceAuthElement } = await import('../src/element.js')
    expect(typeof ServiceAuthElement).toBe('function')
  })

  it('relies on a rule the stylesheet has: an empty <service-auth>, as a server renders it, is as tall as the widget, and a block', async () => {
    const css = await readFile(new URL('../src/style.css', import.meta.url), 'utf8')
    expect(css).toMatch(/\bservice-auth:empty::before[^{]*\{[^}]*height:\s*calc\(var\(--sa-size, 200px\) \+ 50px \+ 4lh\)/)
    expect(css).toMatch(/^service-auth\s*\{\s*display:\s*block;?\s*\}/m)
  })
})
