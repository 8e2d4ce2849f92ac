// @vitest-environment node
// service-auth/element imported on a server, as a framework's server render evaluates a page's
// imports (SvelteKit, Nuxt, Next.js): there is no DOM there, and nothing may throw or be defined.
import { describe, expect, it } from 'vitest'

describe('service-auth/element on a server', () => {
  it('imports without a DOM, defines nothing and throws nothing', async () => {
    expect(typeof HTMLElement).toBe('undefined')
    expect(typeof customElements).toBe('undefined')
    const { ServiceAuthElement } = await import('../src/element')
    expect(typeof ServiceAuthElement).toBe('function')
  })
})
