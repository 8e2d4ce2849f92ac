// The React component in a browser-like page (happy-dom), against the scripted fake service: what
// a person sees, what the service is asked, and which of the integrator's callbacks hear what.
import { act, createRef, StrictMode, type ReactNode } from 'react'
import { createRoot, type Root } from 'react-dom/client'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import * as index from '../src/index.js'
import type { Controls } from '../src/index.js'
import { ServiceAuth, type ServiceAuthProps } from '../src/react.js'
import { API, FakeService, dataSrcOf, held, seen, stubNavigation, tokenResponse } from './helpers.js'

// Tells React that updates are wrapped in act(), as a test renderer would.
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

let service: FakeService
let container: HTMLElement
let root: Root

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2030-01-01T12:00:00Z') })
  service = new FakeService()
  container = document.body.appendChild(document.createElement('main'))
  root = createRoot(container)
})

afterEach(() => {
  act(() => root.unmount())
  document.body.replaceChildren()
  vi.useRealTimers()
})

const render = (node: ReactNode) => act(() => root.render(node))
/**
 * Lets the widgets run until `done()` holds, a millisecond of the clock at a time (fake timers
 * run a zero delay set during a tick a millisecond later): whether a widget starts in the task
 * that mounts it or in a later one, the test waits for what it shows or sends, not for a time.
 */
async function until(done: () => unknown): Promise<void> {
  for (let turn = 0; !done(); turn++) {
    if (turn == 50) throw new Error('Never happened: ' + done)
    await act(() => vi.advanceTimersByTimeAsync(1))
  }
}
/** Runs whatever the widgets would do in the next `ms` of the clock. */
const pass = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))
const props: ServiceAuthProps = { apiKey: 'pk_test_123', authUrl: '/auth/controller', api: API }
const widgetElement = () => container.querySelector<HTMLElement>('[data-service-auth]')!
const keysSent = () => service.creates.map((call) => JSON.parse(String(call.init.body)).key)

describe('<ServiceAuth>', () => {
  it('renders its element and mounts the widget into it, which shows a code', async () => {
    await render(<ServiceAuth {...props} className="login" style={{ margin: 4 }} />)
    const el = widgetElement()
    expect(el.className).toBe('login')
    expect(el.style.margin).toBe('4px')
    await until(() => seen(el).image)
    expect(seen(el).image).toBe(dataSrcOf('c1'))
    // Its words come in the task after the frame that paints the code (widget.ts).
    await until(() => seen(el).status)
    expect(seen(el).status).toBe('Scan with the app')
    expect(keysSent()).toEqual(['pk_test_123'])
  })

  it('passes its options on: imageKind, locale, texts', async () => {
    await render(<ServiceAuth {...props} imageKind="qrcode-large" locale="en" texts={{ ready: 'Scan it' }} />)
    await until(() => seen(widgetElement()).image)
    // The fake service's large image (challengeJson): the kind asked for is the kind shown.
    expect(seen(widgetElement()).image).toBe('data:image/png;base64,TGFyZ2U=')
    await until(() => seen(widgetElement()).status)
    expect(seen(widgetElement()).status).toBe('Scan it')
  })

  it('passes every option the table has on to mount(), autoStart, imageData, authType and authHeader among them', async () => {
    const mounted = vi.spyOn(index, 'mount')
    const every = {
      ...props,
      imageKind: 'qrcode-large',
      authType: 'web',
      imageData: false,
      authHeader: 'Authorization',
      autoStart: false,
      locale: 'en',
      appUrl: 'serviceauth://challenge/{id}',
      texts: { ready: 'Scan it' },
    } satisfies Required<Omit<ServiceAuthProps, `on${string}` | 'className' | 'style'>>
    await render(<ServiceAuth {...every} />)
    await until(() => mounted.mock.calls.length)
    expect(Object.keys(every).sort()).toEqual(Object.keys(index.OPTIONS).sort())
    expect(mounted).toHaveBeenCalledExactlyOnceWith(widgetElement(), every)
    // autoStart: false, as passed on: a button, and no request.
    expect(seen(widgetElement()).button).toBe('Show a new code')
    expect(service.calls).toEqual([])
  })

  it('gives its ref start(), stop(), reset() (a new code now) and state', async () => {
    const ref = createRef<Controls>()
    await render(<ServiceAuth {...props} autoStart={false} ref={ref} />)
    const el = widgetElement()
    await until(() => ref.current?.state)
    expect(ref.current!.state).toBe('idle')
    act(() => ref.current!.start())
    await until(() => seen(el).image)
    expect(seen(el).image).toBe(dataSrcOf('c1'))
    expect(ref.current!.state).toBe('ready')
    act(() => ref.current!.reset())
    await until(() => seen(el).image == dataSrcOf('c2'))
    expect(service.creates).toHaveLength(2)
    act(() => ref.current!.stop())
    expect(ref.current!.state).toBe('idle')
    expect(seen(el).button).toBe('Show a new code')
    // The same controls reach a widget restarted with other options.
    await render(<ServiceAuth {...props} apiKey="pk_test_456" autoStart={false} ref={ref} />)
    await until(() => ref.current?.state)
    act(() => ref.current!.start())
    await until(() => service.creates.length == 3)
    expect(keysSent()[2]).toBe('pk_test_456')
  })

  it('gives its ref a state of undefined once unmounted, and controls that do nothing', async () => {
    const ref = createRef<Controls>()
    await render(<ServiceAuth {...props} ref={ref} />)
    const controls = ref.current!
    await until(() => controls.state == 'ready')
    act(() => root.render(null))
    expect(controls.state).toBeUndefined()
    controls.start()
    controls.reset()
    controls.stop()
    await pass(5000)
    expect(service.creates).toHaveLength(1)
  })

  it('asks the service at api', async () => {
    await render(<ServiceAuth {...props} api="https://other.test.example/" />)
    await until(() => service.calls.length)
    expect(service.calls.map((call) => call.url)).toEqual(['https://other.test.example/v1/entity/challenges'])
  })

  it('calls the latest callbacks, and a re-render with new inline callbacks neither remounts nor asks for a new code', async () => {
    const nav = stubNavigation()
    const poll = held()
    service.poll = () => poll.promise
    const heard: string[] = []
    const page = (version: number) => (
      <ServiceAuth
        {...props}
        texts={{ ready: 'Scan it' }}
        onReady={({ challengeId }) => heard.push(`ready ${challengeId} (render ${version})`)}
        onSigned={({ challengeId }) => heard.push(`signed ${challengeId} (render ${version})`)}
        onSuccess={({ location }) => heard.push(`success ${location} (render ${version})`)}
      />
    )
    await render(page(1))
    await until(() => service.polls().length)
    const shown = widgetElement().querySelector('.sa')
    await render(page(2))
    await render(page(3))
    await pass(100)
    expect(widgetElement().querySelector('.sa')).toBe(shown)
    expect(service.creates).toHaveLength(1)
    expect(service.polls()).toHaveLength(1)

    poll.resolve(tokenResponse())
    await until(() => nav.assign.mock.calls.length)
    expect(heard).toEqual(['ready c1 (render 1)', 'signed c1 (render 3)', 'success http://localhost:3000/welcome (render 3)'])
    expect(nav.assign).toHaveBeenCalledExactlyOnceWith('http://localhost:3000/welcome')
  })

  it('lets onSuccess take over navigation by returning false: no navigation, and the widget says so', async () => {
    const nav = stubNavigation()
    service.poll = () => tokenResponse()
    const onSuccess = vi.fn(() => false)
    await render(<ServiceAuth {...props} onSuccess={onSuccess} />)
    await until(() => onSuccess.mock.calls.length)
    expect(onSuccess).toHaveBeenCalledExactlyOnceWith({ location: 'http://localhost:3000/welcome', path: '/welcome' })
    expect(nav.assign).not.toHaveBeenCalled()
    expect(nav.reload).not.toHaveBeenCalled()
    expect(seen(widgetElement()).status).toBe('Signed in')
  })

  it('tells onError about unusable options as it mounts', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const onError = vi.fn()
    await render(<ServiceAuth {...props} authUrl="https://elsewhere.example/auth" onError={onError} />)
    await until(() => onError.mock.calls.length)
    await pass(100)
    expect(onError).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ reason: 'config' }))
    expect(seen(widgetElement()).status).toBe('Sign-in is unavailable')
    expect(service.calls).toEqual([])
  })

  it.each<[string, Partial<ServiceAuthProps>]>([
    ['apiKey', { apiKey: 'pk_test_456' }],
    ['authUrl', { authUrl: '/auth/other-controller' }],
    ['api', { api: API + '/' }],
    ['locale', { locale: 'en-GB' }],
    ['texts', { texts: { ready: 'Scan it now' } }],
  ])('starts afresh with a new code when %s changes, and aborts what the old one had in flight', async (_, change) => {
    const poll = held()
    service.poll = () => poll.promise
    await render(<ServiceAuth {...props} texts={{ ready: 'Scan it' }} />)
    await until(() => service.polls().length)
    const first = widgetElement().querySelector('.sa')
    await render(<ServiceAuth {...props} texts={{ ready: 'Scan it' }} {...change} />)
    await until(() => service.creates.length == 2)
    expect(service.polls()[0]?.init.signal?.aborted).toBe(true)
    expect(service.creates).toHaveLength(2)
    expect(widgetElement().querySelectorAll('.sa')).toHaveLength(1)
    expect(widgetElement().querySelector('.sa')).not.toBe(first)
    expect(keysSent()[1]).toBe(change.apiKey ?? 'pk_test_123')
  })

  it('keeps the widget when className or style change, or inline texts are written again alike', async () => {
    service.poll = () => held().promise
    await render(<ServiceAuth {...props} texts={{ ready: 'Scan it' }} className="a" />)
    await until(() => service.polls().length)
    await render(<ServiceAuth {...props} texts={{ ready: 'Scan it' }} className="b" style={{ opacity: 0.5 }} />)
    await pass(100)
    expect(service.creates).toHaveLength(1)
    expect(widgetElement().className).toBe('b')
    expect(seen(widgetElement()).status).toBe('Scan it')
  })

  it('unmounts cleanly: the held poll is aborted, the widget removed, and nothing more is asked', async () => {
    const poll = held()
    service.poll = () => poll.promise
    const onError = vi.fn()
    await render(<ServiceAuth {...props} onError={onError} />)
    await until(() => service.polls().length)
    const el = widgetElement()
    await render(null)
    expect(service.polls()[0]?.init.signal?.aborted).toBe(true)
    expect(el.isConnected).toBe(false)
    expect(el.querySelector('.sa')).toBeNull()
    const asked = service.calls.length
    await pass(10 * 60_000)
    expect(service.calls).toHaveLength(asked)
    expect(onError).not.toHaveBeenCalled()
  })

  it('runs several on one page, each with its own code and its own callbacks', async () => {
    const readyA = vi.fn()
    const readyB = vi.fn()
    await render(
      <>
        <ServiceAuth {...props} onReady={readyA} />
        <ServiceAuth {...props} apiKey="pk_test_456" onReady={readyB} />
      </>,
    )
    const [a, b] = container.querySelectorAll<HTMLElement>('[data-service-auth]')
    await until(() => seen(a!).image && seen(b!).image)
    expect(seen(a!).image).toBe(dataSrcOf('c1'))
    expect(seen(b!).image).toBe(dataSrcOf('c2'))
    expect(readyA).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ challengeId: 'c1' }))
    expect(readyB).toHaveBeenCalledExactlyOnceWith(expect.objectContaining({ challengeId: 'c2' }))
    expect(keysSent()).toEqual(['pk_test_123', 'pk_test_456'])
  })

  it('shows one widget per element under StrictMode, whose double mount leaves nothing of the first behind', async () => {
    const onReady = vi.fn()
    await render(
      <StrictMode>
        <ServiceAuth {...props} onReady={onReady} />
      </StrictMode>,
    )
    const el = widgetElement()
    await until(() => seen(el).image)
    await pass(100)
    expect(el.querySelectorAll('.sa')).toHaveLength(1)
    expect(seen(el).status).toBe('Scan with the app')
    // Whatever the first mount sent is aborted: only one code is ever shown and polled.
    expect(service.creates.filter((call) => !call.init.signal?.aborted)).toHaveLength(1)
    expect(onReady).toHaveBeenCalledTimes(1)
    expect(new Set(service.polls().map((call) => call.url)).size).toBe(1)
  })
})
