// The Vue component in a browser-like page (happy-dom), against the scripted fake service: what a
// person sees, what the service is asked, and which of the integrator's listeners hear what.
import { createApp, defineComponent, h, nextTick, reactive, ref, type App } from 'vue'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import * as index from '../src/index.js'
import { get } from '../src/index.js'
import { ServiceAuth } from '../src/vue.js'
import { API, FakeService, dataSrcOf, flush, pastFirstPaint, seen, status, stubNavigation, tokenResponse } from './helpers.js'

let service: FakeService
let app: App | undefined

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2030-01-01T12:00:00Z') })
  service = new FakeService()
})

afterEach(() => {
  app?.unmount()
  app = undefined
  document.body.replaceChildren()
  vi.useRealTimers()
})

/** Mounts `render` as a Vue app in the page; its root element. */
function mountApp(render: () => ReturnType<typeof h>): HTMLElement {
  const container = document.body.appendChild(document.createElement('main'))
  app = createApp(defineComponent({ render }))
  app.mount(container)
  return container
}
const widgetElement = (container: HTMLElement) => container.querySelector<HTMLElement>('[data-service-auth]')!
const keysSent = () => service.creates.map((call) => JSON.parse(String(call.init.body)).key)

describe('<ServiceAuth> for Vue', () => {
  it('renders its element and mounts the widget into it, which shows a code; class falls through', async () => {
    const container = mountApp(() => h(ServiceAuth, { apiKey: 'pk_test_123', authUrl: '/auth/controller', api: API, class: 'login' }))
    const el = widgetElement(container)
    expect(el.className).toBe('login')
    await flush()
    expect(seen(el).image).toBe(dataSrcOf('c1'))
    expect(keysSent()).toEqual(['pk_test_123'])
  })

  it('one challenge through re-renders with the same values (texts by value); a changed prop starts afresh', async () => {
    const state = reactive({ apiKey: 'pk_test_123', other: 0 })
    let renders = 0
    const container = mountApp(() => {
      renders++
      void state.other
      // A new texts object at every render, as a template literal is.
      return h(ServiceAuth, { apiKey: state.apiKey, authUrl: '/auth/controller', api: API, texts: { ready: 'Scan it' } })
    })
    await flush()
    state.other++
    await nextTick()
    await flush()
    expect(renders).toBe(2)
    expect(keysSent()).toEqual(['pk_test_123'])
    await pastFirstPaint()
    expect(seen(widgetElement(container)).status).toBe('Scan it')
    state.apiKey = 'pk_test_456'
    await nextTick()
    await flush()
    expect(keysSent()).toEqual(['pk_test_123', 'pk_test_456'])
    expect(container.querySelectorAll('.sa')).toHaveLength(1)
  })

  it('emits ready, signed and error with the details; onSuccess returning false takes over navigation', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const nav = stubNavigation()
    service.poll = () => tokenResponse()
    const heard: [string, unknown][] = []
    const container = mountApp(() =>
      h(ServiceAuth, {
        apiKey: 'pk_test_123',
        authUrl: '/auth/controller',
        api: API,
        onReady: (detail: unknown) => heard.push(['ready', detail]),
        onSigned: (detail: unknown) => heard.push(['signed', detail]),
        onSuccess: (detail: unknown) => (heard.push(['success', detail]), false),
      }),
    )
    await flush()
    await vi.advanceTimersByTimeAsync(1000)
    expect(heard).toEqual([
      ['ready', { challengeId: 'c1', expiresAt: expect.any(String) }],
      ['signed', { challengeId: 'c1' }],
      ['success', { location: 'http://localhost:3000/welcome', path: '/welcome' }],
    ])
    expect(nav.assign).not.toHaveBeenCalled()
    expect(seen(widgetElement(container)).status).toBe('Signed in')
    // Each emit passed its validator.
    expect(warn).not.toHaveBeenCalled()
  })

  it('without onSuccess, navigates as the controller said, and nothing fails', async () => {
    const errors = vi.spyOn(console, 'error')
    const nav = stubNavigation()
    service.poll = () => tokenResponse()
    mountApp(() => h(ServiceAuth, { apiKey: 'pk_test_123', authUrl: '/auth/controller', api: API }))
    await flush()
    await vi.advanceTimersByTimeAsync(1000)
    expect(nav.assign).toHaveBeenCalledExactlyOnceWith('http://localhost:3000/welcome')
    expect(errors).not.toHaveBeenCalled()
  })

  it('emits expired with its details, and every emit passes its validator: Vue warns of nothing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    vi.spyOn(console, 'error').mockImplementation(() => {})
    // The first code expires at its first poll; the next poll fails, which the widget reports.
    const polls = [status(410), status(503)]
    service.poll = () => polls.shift() ?? status(503)
    const heard: [string, unknown][] = []
    mountApp(() =>
      h(ServiceAuth, {
        apiKey: 'pk_test_123',
        authUrl: '/auth/controller',
        api: API,
        onReady: (detail: unknown) => heard.push(['ready', detail]),
        onExpired: (detail: unknown) => heard.push(['expired', detail]),
        onError: (detail: unknown) => heard.push(['error', detail]),
      }),
    )
    await flush()
    await vi.advanceTimersByTimeAsync(1000)
    await flush()
    await vi.advanceTimersByTimeAsync(1000)
    expect(heard.slice(0, 4)).toEqual([
      ['ready', { challengeId: 'c1', expiresAt: expect.any(String) }],
      ['expired', { challengeId: 'c1' }],
      ['ready', { challengeId: 'c2', expiresAt: expect.any(String) }],
      ['error', { reason: 'service', status: 503, retryAfter: 0 }],
    ])
    expect(warn).not.toHaveBeenCalled()
  })

  it('has a prop for every option the table has, required as the table says, and passes each on to mount()', async () => {
    const optionProps = Object.fromEntries(Object.entries(ServiceAuth.props).filter(([name]) => name != 'onSuccess'))
    expect(Object.keys(optionProps)).toEqual(Object.keys(index.OPTIONS))
    for (const [name, row] of Object.entries(index.OPTIONS)) expect((optionProps[name] as { required: boolean }).required, name).toBe('required' in row)
    const mounted = vi.spyOn(index, 'mount')
    const every = {
      apiKey: 'pk_test_123',
      authUrl: '/auth/controller',
      api: API,
      imageKind: 'qrcode-large',
      authType: 'web',
      imageData: false,
      authHeader: 'Authorization',
      autoStart: false,
      locale: 'en',
      appUrl: 'serviceauth://challenge/{id}',
      texts: { ready: 'Scan it' },
    }
    const container = mountApp(() => h(ServiceAuth, every))
    expect(mounted).toHaveBeenCalledExactlyOnceWith(widgetElement(container), every)
    expect(seen(widgetElement(container)).button).toBe('Show a new code')
  })

  it('leaves a yes-or-no option it was not given absent, as the markup would: no autoStart is on', async () => {
    const mounted = vi.spyOn(index, 'mount')
    mountApp(() => h(ServiceAuth, { apiKey: 'pk_test_123', authUrl: '/auth/controller', api: API }))
    expect(mounted.mock.calls[0]![1]).toEqual({
      apiKey: 'pk_test_123',
      authUrl: '/auth/controller',
      api: API,
      imageKind: undefined,
      authType: undefined,
      imageData: undefined,
      authHeader: undefined,
      autoStart: undefined,
      locale: undefined,
      appUrl: undefined,
      texts: undefined,
    })
    await flush()
    expect(service.creates).toHaveLength(1)
  })

  it('gives a template ref start(), stop(), reset() (a new code now) and state, and nothing else', async () => {
    const login = ref<InstanceType<typeof ServiceAuth>>()
    const container = mountApp(() => h(ServiceAuth, { ref: login, apiKey: 'pk_test_123', authUrl: '/auth/controller', api: API, autoStart: false }))
    const el = widgetElement(container)
    expect(Object.keys(login.value!).sort()).toEqual(['reset', 'start', 'state', 'stop'])
    expect(login.value!.state).toBe('idle')
    login.value!.start()
    await flush()
    expect(seen(el).image).toBe(dataSrcOf('c1'))
    expect(login.value!.state).toBe('ready')
    login.value!.reset()
    await flush()
    expect(seen(el).image).toBe(dataSrcOf('c2'))
    login.value!.stop()
    expect(login.value!.state).toBe('idle')
    expect(seen(el).button).toBe('Show a new code')
  })

  it('gives a template ref controls that do nothing once the component is gone, or its widget destroyed by the page', async () => {
    const login = ref<InstanceType<typeof ServiceAuth>>()
    const shown = reactive({ on: true })
    const container = mountApp(() => (shown.on ? h(ServiceAuth, { ref: login, apiKey: 'pk_test_123', authUrl: '/auth/controller', api: API }) : h('p', 'gone')))
    await flush()
    const controls = login.value!
    // The page destroys the widget itself; unmounting then finds none, and says nothing of it.
    get(widgetElement(container))!.destroy()
    expect(controls.state).toBeUndefined()
    shown.on = false
    await nextTick()
    controls.start()
    controls.reset()
    controls.stop()
    await flush()
    expect(service.creates).toHaveLength(1)
  })

  it("checks each option's type as the table says, as Vue does: a key that is a number is warned of", () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    vi.spyOn(console, 'error').mockImplementation(() => {})
    mountApp(() => h(ServiceAuth as never, { apiKey: 42, authUrl: '/auth/controller', api: API, autoStart: 'yes', texts: 'Scan' }))
    const said = warn.mock.calls.map((call) => call.join(' '))
    expect(said).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Invalid prop: type check failed for prop "apiKey"\. Expected String/),
        expect.stringMatching(/Invalid prop: type check failed for prop "autoStart"\. Expected Boolean/),
        expect.stringMatching(/Invalid prop: type check failed for prop "texts"\. Expected Object/),
      ]),
    )
  })

  it('says in a Vue warning, naming the component, that apiKey, authUrl and api are required', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    vi.spyOn(console, 'error').mockImplementation(() => {})
    mountApp(() => h(ServiceAuth as never, {}))
    const said = warn.mock.calls.map((call) => call.join(' '))
    expect(said).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Missing required prop: "apiKey"[\s\S]*<ServiceAuth/),
        expect.stringMatching(/Missing required prop: "authUrl"/),
        expect.stringMatching(/Missing required prop: "api"/),
      ]),
    )
  })

  it('texts changed in place start afresh with them', async () => {
    const texts = reactive({ ready: 'Scan it' })
    const container = mountApp(() => h(ServiceAuth, { apiKey: 'pk_test_123', authUrl: '/auth/controller', api: API, texts }))
    await flush()
    await pastFirstPaint()
    expect(seen(widgetElement(container)).status).toBe('Scan it')
    texts.ready = 'Scan this one'
    await nextTick()
    await flush()
    await pastFirstPaint()
    expect(keysSent()).toHaveLength(2)
    expect(seen(widgetElement(container)).status).toBe('Scan this one')
  })

  it('navigates as the controller said when onSuccess returns anything else', async () => {
    const nav = stubNavigation()
    service.poll = () => tokenResponse()
    mountApp(() => h(ServiceAuth, { apiKey: 'pk_test_123', authUrl: '/auth/controller', api: API, onSuccess: () => undefined }))
    await flush()
    await vi.advanceTimersByTimeAsync(1000)
    expect(nav.assign).toHaveBeenCalledExactlyOnceWith('http://localhost:3000/welcome')
  })

  it('reports unusable options with an error event while it mounts', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const errors: unknown[] = []
    mountApp(() => h(ServiceAuth, { apiKey: '', authUrl: '/auth/controller', api: API, onError: (detail: unknown) => errors.push(detail) }))
    expect(errors).toEqual([{ reason: 'config', status: 0 }])
  })

  it('unmounting aborts every request and timer', async () => {
    const show = reactive({ on: true })
    mountApp(() => (show.on ? h(ServiceAuth, { apiKey: 'pk_test_123', authUrl: '/auth/controller', api: API }) : h('p', 'gone')))
    await flush()
    show.on = false
    await nextTick()
    const asked = service.calls.length
    await vi.advanceTimersByTimeAsync(10_000)
    expect(service.calls).toHaveLength(asked)
    expect(vi.getTimerCount()).toBe(0)
  })
})
