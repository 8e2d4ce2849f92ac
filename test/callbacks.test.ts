// Callbacks by attribute, as Turnstile and Google Identity Services have them: a global function
// named in data-service-callback, -error-callback or -expired-callback is called with the event's
// detail; the events themselves go on as ever.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { mount, type Handle } from '../src/index'
import { FakeService, challengeJson, flush, noContent, recordEvents, seen, status, stubNavigation, tokenResponse, types, widget } from './helpers'

let service: FakeService
let nav: ReturnType<typeof stubNavigation>
let handles: Handle[]
const globals = window as unknown as Record<string, unknown>
const created = (n: number) => Response.json(challengeJson('c' + n), { status: 201 })

function mountWidget(attrs: Record<string, string>) {
  const el = widget(attrs)
  handles.push(mount(el))
  return el
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2030-01-01T12:00:00Z') })
  service = new FakeService()
  nav = stubNavigation()
  handles = []
})

afterEach(() => {
  handles.forEach((handle) => handle.destroy())
  document.body.replaceChildren()
  for (const name of ['onSignedIn', 'onAuthError', 'onCodeExpired', 'notAFunction']) delete globals[name]
  vi.useRealTimers()
})

describe('data-service-callback', () => {
  it('calls the named global function with the success detail, and navigation goes ahead', async () => {
    const onSignedIn = vi.fn()
    globals.onSignedIn = onSignedIn
    service.poll = tokenResponse
    mountWidget({ 'data-service-callback': 'onSignedIn' })
    await flush()
    expect(onSignedIn).toHaveBeenCalledExactlyOnceWith({ location: 'http://localhost:3000/welcome', path: '/welcome' })
    expect(nav.assign).toHaveBeenCalledExactlyOnceWith('http://localhost:3000/welcome')
  })

  it('takes over navigation when it returns false, as cancelling the event does: the widget says "Signed in"', async () => {
    globals.onSignedIn = () => false
    service.poll = tokenResponse
    const el = mountWidget({ 'data-service-callback': 'onSignedIn' })
    await flush()
    expect(nav.assign).not.toHaveBeenCalled()
    expect(nav.reload).not.toHaveBeenCalled()
    expect(seen(el).status).toBe('Signed in')
  })

  it('finds a function the page defines after mounting', async () => {
    service.poll = (id) => (service.polls(id).length < 2 ? noContent() : tokenResponse())
    mountWidget({ 'data-service-callback': 'onSignedIn' })
    await flush()
    const onSignedIn = vi.fn()
    globals.onSignedIn = onSignedIn
    await vi.advanceTimersByTimeAsync(2_000)
    expect(onSignedIn).toHaveBeenCalledOnce()
  })

  it('leaves the events as they are', async () => {
    globals.onSignedIn = () => false
    service.poll = tokenResponse
    const events = recordEvents(document.body)
    mountWidget({ 'data-service-callback': 'onSignedIn' })
    await flush()
    expect(types(events)).toEqual(['ready', 'signed', 'success'])
  })
})

describe('data-service-error-callback and data-service-expired-callback', () => {
  it('call theirs with the error detail and the expired detail', async () => {
    const onAuthError = vi.fn()
    const onCodeExpired = vi.fn()
    Object.assign(globals, { onAuthError, onCodeExpired })
    service.poll = (id) => (id == 'c1' ? status(410) : noContent())
    service.create = (n) => (n == 2 ? status(503) : created(n))
    mountWidget({ 'data-service-error-callback': 'onAuthError', 'data-service-expired-callback': 'onCodeExpired' })
    await vi.advanceTimersByTimeAsync(5_000)
    expect(onCodeExpired).toHaveBeenCalledExactlyOnceWith({ challengeId: 'c1' })
    expect(onAuthError).toHaveBeenCalledExactlyOnceWith({ reason: 'service', status: 503, retryAfter: expect.any(Number) })
  })

  it('a false from them changes nothing', async () => {
    globals.onAuthError = () => false
    service.create = (n) => (n == 1 ? status(503) : created(n))
    const el = mountWidget({ 'data-service-error-callback': 'onAuthError' })
    await vi.advanceTimersByTimeAsync(5_000)
    expect(seen(el).status).toBe('Scan with the app')
  })
})

describe('a name that is not a function on window', () => {
  it.each([
    ['data-service-callback', 'notAFunction'],
    ['data-service-error-callback', 'notAFunction'],
    ['data-service-callback', 'missingEverywhere'],
  ])('%s="%s" logs one console error naming the attribute, and changes nothing else', async (attribute, name) => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    globals.notAFunction = 'a string'
    service.poll = tokenResponse
    service.create = (n) => (n == 1 && attribute.includes('error') ? status(503) : created(n))
    mountWidget({ [attribute]: name })
    await vi.advanceTimersByTimeAsync(5_000)
    expect(consoleError).toHaveBeenCalledOnce()
    expect(String(consoleError.mock.calls[0]![0])).toContain(attribute)
    expect(nav.assign).toHaveBeenCalledExactlyOnceWith('http://localhost:3000/welcome')
  })
})
