import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { get, mount, scan, sweep, version } from '../src/index.js'
import {
  FakeService,
  TOKEN,
  dataSrcOf,
  flush,
  headersOf,
  held,
  pastFirstPaint,
  pastLoadingWait,
  recordEvents,
  seen,
  stubNavigation,
  tokenResponse,
  types,
  widget,
} from './helpers.js'

let service: FakeService

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2030-01-01T12:00:00Z') })
  service = new FakeService()
})

afterEach(() => {
  document.querySelectorAll<HTMLElement>('[data-service-auth]').forEach((el) => get(el)?.destroy())
  document.body.replaceChildren()
  sweep()
  vi.useRealTimers()
})

describe('mount', () => {
  it('turns an element into a working sign-in, start to finish', async () => {
    const nav = stubNavigation()
    service.poll = (id) => (service.polls(id).length < 3 ? new Response(null, { status: 204 }) : tokenResponse())
    const el = widget()
    const events = recordEvents(document.body)
    mount(el)
    await flush()
    expect(seen(el).image).toBe(dataSrcOf('c1'))
    await vi.advanceTimersByTimeAsync(2000)
    expect(types(events)).toEqual(['ready', 'signed', 'success'])
    expect(headersOf(service.controllerCalls[0]).get('X-Service-Auth')).toBe(TOKEN)
    expect(nav.assign).toHaveBeenCalledExactlyOnceWith('http://localhost:3000/welcome')
  })

  it('returns the running widget when mounted again with the same options (by value), or with none, and starts once', async () => {
    const el = widget()
    const first = mount(el, { apiKey: 'pk_test_123', texts: { ready: 'Scan it' } })
    // A literal written anew, with an absent option spelt out: the same options.
    expect(mount(el, { apiKey: 'pk_test_123', locale: undefined, texts: { ready: 'Scan it' } })).toBe(first)
    // No options: what the CDN script's scan() does at every change to the page.
    expect(mount(el)).toBe(first)
    await flush()
    expect(service.creates).toHaveLength(1)
    expect(el.querySelectorAll('.sa')).toHaveLength(1)
    await pastFirstPaint()
    expect(seen(el).status).toBe('Scan it')
  })

  it('restarts a mounted widget with other options: the old one is destroyed, a new code is shown', async () => {
    const el = widget()
    const first = mount(el)
    await flush()
    const second = mount(el, { apiKey: 'pk_test_456', texts: { ready: 'Scan it' } })
    expect(second).not.toBe(first)
    expect(get(el)).toBe(second)
    await flush()
    expect(service.creates.map((call) => JSON.parse(String(call.init.body)).key)).toEqual(['pk_test_123', 'pk_test_456'])
    expect(el.querySelectorAll('.sa')).toHaveLength(1)
    await pastFirstPaint()
    expect(seen(el).status).toBe('Scan it')
    expect(seen(el).image).toBe(dataSrcOf('c2'))
    // The old handle is spent: it starts nothing and destroys nothing of the new widget.
    first.start()
    first.destroy()
    await flush()
    expect(get(el)).toBe(second)
    expect(service.creates).toHaveLength(2)
  })

  it('takes options that override the attributes', async () => {
    service.create = () => held().promise
    const el = widget({ 'data-service-locale': 'en' })
    mount(el, { texts: { loading: 'Einen Moment…' } })
    await flush()
    await pastLoadingWait()
    expect(seen(el).status).toBe('Einen Moment…')
  })

  it('mounts afresh after a destroy; a mount destroyed in the task that made it (React StrictMode) asks for no code', async () => {
    const el = widget()
    const first = mount(el)
    first.destroy()
    expect(get(el)).toBeUndefined()
    const second = mount(el)
    expect(second).not.toBe(first)
    await flush()
    expect(service.creates).toHaveLength(1)
    second.destroy()
    mount(el)
    await flush()
    expect(service.creates).toHaveLength(2)
    expect(el.querySelectorAll('.sa')).toHaveLength(1)
  })
})

describe('a mount destroyed before its first request leaves', () => {
  it('asks for no code when destroyed in a microtask of the task that made it', async () => {
    const el = widget()
    const handle = mount(el)
    queueMicrotask(() => handle.destroy())
    await flush()
    expect(service.creates).toHaveLength(0)
  })
})

describe('get', () => {
  it('finds the handle of a mounted element only', () => {
    const el = widget()
    const handle = mount(el)
    expect(get(el)).toBe(handle)
    expect(get(widget())).toBeUndefined()
  })

  it('finds a widget from a listener of its first event, a markup error at once, and one destroyed there stays destroyed', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const el = widget({ 'data-service-key': '' })
    const seenThere: (string | undefined)[] = []
    el.addEventListener('service-auth:error', () => seenThere.push(get(el)?.state))
    mount(el)
    expect(seenThere).toEqual(['error'])

    const other = widget({ 'data-service-key': '' })
    other.addEventListener('service-auth:error', () => get(other)!.destroy())
    mount(other)
    expect(get(other)).toBeUndefined()
    expect(other.querySelector('.sa')).toBeNull()
    // Destroyed, not forgotten: the CDN build's watcher does not bring it back.
    expect(scan(document.body).map((handle) => handle.state)).toEqual(['error'])
  })
})

describe('scan', () => {
  it('mounts every [data-service-auth] element in the document', async () => {
    const a = widget()
    const b = widget()
    document.body.append(document.createElement('div'))
    const handles = scan()
    expect(handles).toEqual([get(a), get(b)])
    await flush()
    expect(service.creates).toHaveLength(2)
    expect(seen(a).image).not.toBeNull()
    expect(seen(b).image).not.toBeNull()
  })

  it('mounts the root itself when it is a widget', async () => {
    const el = widget()
    const inside = widget({}, el)
    expect(scan(el)).toEqual([get(el), get(inside)])
  })

  it('mounts only inside the given root, and never twice', async () => {
    const dialog = document.body.appendChild(document.createElement('dialog'))
    const inside = widget({}, dialog)
    const outside = widget()
    expect(scan(dialog)).toEqual([get(inside)])
    expect(get(outside)).toBeUndefined()
    expect(scan(dialog)).toEqual([get(inside)])
    await flush()
    expect(service.creates).toHaveLength(1)
  })
})

describe('sweep', () => {
  it('destroys the widgets whose elements left the page, aborting their requests', async () => {
    service.poll = () => new Promise(() => {})
    const gone = widget()
    const kept = widget()
    scan()
    await flush()
    const [goneCall, keptCall] = [service.polls('c1')[0], service.polls('c2')[0]]
    gone.remove()
    sweep()
    expect(get(gone)).toBeUndefined()
    expect(gone.querySelector('.sa')).toBeNull()
    expect(goneCall.init.signal!.aborted).toBe(true)
    expect(get(kept)).toBeDefined()
    expect(keptCall.init.signal!.aborted).toBe(false)
    expect(seen(kept).image).toBe(dataSrcOf('c2'))
  })
})

describe('the ESM entry', () => {
  it('exports the build version', () => {
    expect(version).toBe('0.0.0-test')
  })

  it('sets no global', () => {
    expect(window.ServiceAuth).toBeUndefined()
  })
})
