// <service-auth>, the custom element, in a browser-like page (happy-dom) against the scripted fake
// service: attributes in, what a person sees, what the service is asked, and the events out.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ServiceAuthElement } from '../src/element.js'
import * as index from '../src/index.js'
import { get, OPTIONS } from '../src/index.js'
import { API, FakeService, dataSrcOf, flush, pastFirstPaint, seen, stubNavigation, tokenResponse } from './helpers.js'

let service: FakeService

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2030-01-01T12:00:00Z') })
  service = new FakeService()
})

afterEach(async () => {
  document.body.replaceChildren()
  await flush()
  vi.useRealTimers()
})

/** A <service-auth> with a valid key and controller and `attributes`, in the page. */
function element(attributes: Record<string, string> = {}): ServiceAuthElement {
  const el = document.createElement('service-auth')
  el.setAttribute('api-key', 'pk_test_123')
  el.setAttribute('auth-url', '/auth/controller')
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value)
  document.body.append(el)
  return el
}
const keysSent = () => service.creates.map((call) => JSON.parse(String(call.init.body)).key)

/** Every `service-auth-*` event that reaches the document, by name. */
function heard(): { type: string; detail: unknown }[] {
  const events: { type: string; detail: unknown }[] = []
  for (const name of ['ready', 'signed', 'success', 'expired', 'error']) {
    document.addEventListener('service-auth-' + name, (event) => events.push({ type: event.type, detail: (event as CustomEvent).detail }))
  }
  return events
}

describe('<service-auth>', () => {
  it('is defined by the import, and is what document.createElement makes', () => {
    expect(customElements.get('service-auth')).toBe(ServiceAuthElement)
    expect(document.createElement('service-auth')).toBeInstanceOf(ServiceAuthElement)
  })

  it("a second copy of the module (a page with two bundles) leaves the first one's element, and throws nothing", async () => {
    vi.resetModules()
    const copy = await import('../src/element.js')
    expect(copy.ServiceAuthElement).not.toBe(ServiceAuthElement)
    expect(customElements.get('service-auth')).toBe(ServiceAuthElement)
  })

  it('mounts the widget when connected: its attributes are the options, one challenge', async () => {
    const el = element({ api: API, 'image-kind': 'qrcode-large', locale: 'en' })
    await flush()
    expect(service.creates).toHaveLength(1)
    const body = JSON.parse(String(service.creates[0]!.init.body))
    expect(body).toMatchObject({ key: 'pk_test_123', returnAuthImageData: true })
    expect(el.querySelector('.sa')!.getAttribute('lang')).toBe('en')
    // The large image's data, as the service returned it for that kind.
    expect(seen(el).image).toBe('data:image/png;base64,TGFyZ2U=')
    expect(el.state).toBe('ready')
    expect(get(el)).toBeDefined()
  })

  it("takes its state from the widget's handle, not from the page: markup a script changed does not fool it", async () => {
    const el = element()
    await flush()
    el.querySelector<HTMLElement>('.sa')!.dataset.state = 'error'
    expect(el.state).toBe('ready')
    expect(el.state).toBe(get(el)!.state)
  })

  it('takes a flag attribute other than `false` as on', async () => {
    element({ 'auto-start': 'true', 'image-data': '' })
    await flush()
    expect(service.creates).toHaveLength(1)
    expect(JSON.parse(String(service.creates[0]!.init.body))).toMatchObject({ returnAuthImageData: true })
  })

  it('reads every option from its kebab-case attribute, `false` turning a flag off', async () => {
    const el = element({ 'auto-start': 'false', 'image-data': 'false', 'auth-type': 'web', 'auth-header': 'Authorization' })
    await flush()
    expect(service.creates).toHaveLength(0)
    expect(el.state).toBe('idle')
    el.start()
    await flush()
    expect(JSON.parse(String(service.creates[0]!.init.body))).toMatchObject({ authType: 'web', returnAuthImageData: false })
    el.stop()
    expect(el.state).toBe('idle')
  })

  it('starts afresh with a new code when an attribute changes, and not when it is set to the same value', async () => {
    const el = element()
    await flush()
    el.setAttribute('api-key', 'pk_test_123')
    await flush()
    expect(keysSent()).toEqual(['pk_test_123'])
    el.setAttribute('api-key', 'pk_test_456')
    await flush()
    expect(keysSent()).toEqual(['pk_test_123', 'pk_test_456'])
    expect(el.querySelectorAll('.sa')).toHaveLength(1)
    expect(seen(el).image).toBe(dataSrcOf('c2'))
  })

  it('takes `texts` as a property, by value: an equal object keeps the code, another starts afresh', async () => {
    const el = element()
    el.texts = { ready: 'Scan it' }
    await flush()
    await pastFirstPaint()
    expect(seen(el).status).toBe('Scan it')
    el.texts = { ready: 'Scan it' }
    await flush()
    expect(service.creates).toHaveLength(1)
    el.texts = { ready: 'Scan this' }
    await flush()
    await pastFirstPaint()
    expect(seen(el).status).toBe('Scan this')
    expect(service.creates).toHaveLength(2)
  })

  it('takes over `texts` set on the element before it was defined (a framework rendering first)', async () => {
    // What an upgrade finds: an own property where the class has an accessor.
    const upgraded = document.createElement('service-auth')
    Object.defineProperty(upgraded, 'texts', { value: { ready: 'Early' }, configurable: true, writable: true, enumerable: true })
    upgraded.setAttribute('api-key', 'pk_test_123')
    upgraded.setAttribute('auth-url', '/auth/controller')
    document.body.append(upgraded)
    await flush()
    await pastFirstPaint()
    expect(seen(upgraded).status).toBe('Early')
    expect(Object.hasOwn(upgraded, 'texts')).toBe(false)
    expect(upgraded.texts).toEqual({ ready: 'Early' })
  })

  it("reflects each attribute as a property of the option's name, set before or after it was defined", async () => {
    const early = document.createElement('service-auth')
    Object.defineProperty(early, 'apiKey', { value: 'pk_test_123', configurable: true, writable: true, enumerable: true })
    early.authUrl = '/auth/controller'
    document.body.append(early)
    await flush()
    expect(early.getAttribute('api-key')).toBe('pk_test_123')
    expect(early.apiKey).toBe('pk_test_123')
    expect(keysSent()).toEqual(['pk_test_123'])
    early.apiKey = 'pk_test_456'
    await flush()
    expect(early.getAttribute('api-key')).toBe('pk_test_456')
    expect(keysSent()).toEqual(['pk_test_123', 'pk_test_456'])
    early.locale = null
    expect(early.hasAttribute('locale')).toBe(false)
  })

  it('stops everything when removed, and starts again when put back', async () => {
    const el = element()
    await flush()
    el.remove()
    await flush()
    expect(get(el)).toBeUndefined()
    expect(el.state).toBeUndefined()
    expect(el.querySelector('.sa')).toBeNull()
    const asked = service.calls.length
    await vi.advanceTimersByTimeAsync(10_000)
    expect(service.calls).toHaveLength(asked)
    document.body.append(el)
    await flush()
    expect(service.creates).toHaveLength(2)
    expect(el.state).toBe('ready')
  })

  it('start() and stop() out of the page do nothing, and a removal undone and done again in one task fails nothing', async () => {
    const loose = document.createElement('service-auth')
    loose.start()
    loose.stop()
    expect(loose.state).toBeUndefined()
    const el = element()
    await flush()
    const uncaught: unknown[] = []
    const onError = (event: ErrorEvent) => uncaught.push(event.error)
    window.addEventListener('error', onError)
    // Two disconnections, each with its own look after it: the second finds the widget gone.
    el.remove()
    document.body.append(el)
    el.remove()
    await flush()
    window.removeEventListener('error', onError)
    expect(uncaught).toEqual([])
    expect(get(el)).toBeUndefined()
    el.start()
    el.stop()
    expect(service.creates).toHaveLength(1)
  })

  it("relays only its own widget's events, not those of an element inside it", async () => {
    const events = heard()
    const el = element({ 'auto-start': 'false' })
    await flush()
    const inner = el.appendChild(document.createElement('div'))
    inner.dispatchEvent(new CustomEvent('service-auth:ready', { bubbles: true, detail: { challengeId: 'x', expiresAt: 'y' } }))
    expect(events).toEqual([])
  })

  it('keeps its code when moved within the page (disconnected and connected in one go)', async () => {
    const el = element()
    const other = document.body.appendChild(document.createElement('section'))
    await flush()
    other.append(el)
    await flush()
    expect(service.creates).toHaveLength(1)
    expect(el.state).toBe('ready')
  })

  it('dispatches service-auth-<name> events with the same details; cancelling success takes over navigation', async () => {
    const nav = stubNavigation()
    service.poll = () => tokenResponse()
    const events = heard()
    const el = element()
    el.addEventListener('service-auth-success', (event) => event.preventDefault())
    await flush()
    await vi.advanceTimersByTimeAsync(1000)
    expect(events.map((event) => event.type)).toEqual(['service-auth-ready', 'service-auth-signed', 'service-auth-success'])
    expect(events[0]!.detail).toEqual({ challengeId: 'c1', expiresAt: expect.any(String) })
    expect(events[2]!.detail).toEqual({ location: 'http://localhost:3000/welcome', path: '/welcome' })
    expect(nav.assign).not.toHaveBeenCalled()
    expect(seen(el).status).toBe('Signed in')
  })

  it('reports unusable attributes with service-auth-error, reason config, naming the attribute as the element spells it', async () => {
    const errors: unknown[] = []
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    document.addEventListener('service-auth-error', (event) => errors.push(event.detail), { once: true })
    const el = document.createElement('service-auth')
    el.setAttribute('auth-url', '/auth/controller')
    document.body.append(el)
    expect(errors).toEqual([{ reason: 'config', status: 0 }])
    expect(el.state).toBe('error')
    expect(logged).toHaveBeenCalledExactlyOnceWith('service-auth: api-key is missing or invalid')
    logged.mockClear()
    element({ api: 'ftp://api.example' })
    expect(logged).toHaveBeenCalledExactlyOnceWith('service-auth: api is missing or invalid')
  })

  it('reset() shows a new code at once; out of the page it does nothing', async () => {
    const el = element()
    await flush()
    expect(seen(el).image).toBe(dataSrcOf('c1'))
    el.reset()
    await flush()
    expect(seen(el).image).toBe(dataSrcOf('c2'))
    expect(el.state).toBe('ready')
    el.remove()
    await flush()
    el.reset()
    await flush()
    expect(service.creates).toHaveLength(2)
  })

  it('observes, reflects and passes on the attribute of every option the table has, as its type says', async () => {
    const markup = (Object.keys(OPTIONS) as (keyof typeof OPTIONS)[]).filter((option) => option != 'texts')
    expect(ServiceAuthElement.observedAttributes).toEqual(markup.map((option) => (OPTIONS as any)[option].element))
    const values: Record<string, string> = { imageData: 'false', autoStart: 'false' }
    const el = document.createElement('service-auth')
    for (const option of markup) (el as any)[option] = values[option] ?? `value-of-${option}`
    for (const option of markup) expect(el.getAttribute((OPTIONS as any)[option].element)).toBe(values[option] ?? `value-of-${option}`)
    const mounted = vi.spyOn(index, 'mount')
    vi.spyOn(console, 'error').mockImplementation(() => {})
    document.body.append(el)
    expect(mounted).toHaveBeenCalledOnce()
    const [, options] = mounted.mock.calls[0]!
    expect(options).toEqual({
      ...Object.fromEntries(markup.map((option) => [option, `value-of-${option}`])),
      imageData: false,
      autoStart: false,
      texts: undefined,
    })
  })
})
