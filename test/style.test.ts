import { afterEach, describe, expect, it } from 'vitest'
import { linkStylesheet } from '../src/style'

afterEach(() => document.head.replaceChildren())

const linked = () => document.head.querySelector<HTMLLinkElement>('link[rel=stylesheet]')!

describe('linkStylesheet', () => {
  it.each([
    ['https://cdn.example/service-auth-1.0.0.js', 'https://cdn.example/service-auth-1.0.0.css'],
    ['https://cdn.example/service-auth.js?v=2', 'https://cdn.example/service-auth.css?v=2'],
    ['https://cdn.js.example/js/service-auth.js#x', 'https://cdn.js.example/js/service-auth.css#x'],
  ])('links the stylesheet beside %s', (script, css) => {
    linkStylesheet(script)
    expect(linked().href).toBe(css)
  })

  it('pins it by its integrity hash, fetched without credentials so SRI can check it', () => {
    linkStylesheet('https://cdn.example/service-auth.js')
    expect(linked().integrity).toBe('sha384-test')
    expect(linked().crossOrigin).toBe('anonymous')
  })

  it('goes before the page\'s own stylesheets, so they win ties', () => {
    const own = document.head.appendChild(document.createElement('link'))
    own.rel = 'stylesheet'
    linkStylesheet('https://cdn.example/service-auth.js')
    expect(document.head.firstElementChild).toBe(linked())
  })
})
