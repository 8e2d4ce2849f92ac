// auto.ts runs on import, so each test imports a fresh copy (vi.resetModules) into a page
// without the global, and disconnects the observers the copies started afterwards.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { FakeService, dataSrcOf, flush, pastFirstPaint, seen, widget } from './helpers.js'

let service: FakeService
let observers: MutationObserver[]
let boxes: FakeResizeObserver[]

/**
 * happy-dom lays nothing out, so its ResizeObserver never calls back. This one does as a browser
 * does in the frame after a change: an element has a box while it is in the page and not within
 * a `hidden` one, and each observer hears of the observed elements whose box came or went since
 * it last heard (of every new one the first time). The real thing is tested in every engine (e2e).
 */
class FakeResizeObserver {
  readonly observed = new Map<Element, boolean | undefined>()
  constructor(private readonly callback: ResizeObserverCallback) {
    boxes.push(this)
  }
  observe(target: Element) {
    this.observed.set(target, undefined)
  }
  unobserve(target: Element) {
    this.observed.delete(target)
  }
  disconnect() {
    this.observed.clear()
  }
  frame() {
    const hasBox = (target: Element) => target.isConnected && !target.closest('[hidden]')
    const changed = [...this.observed].filter(([target, box]) => box !== hasBox(target)).map(([target]) => target)
    for (const target of changed) this.observed.set(target, hasBox(target))
    // A box as wide as the page, as tall as what it holds (an empty block has no height), or none: 0 × 0.
    const width = (target: Element) => (hasBox(target) ? 1 : 0)
    const height = (target: Element) => (hasBox(target) && target.firstChild ? 1 : 0)
    const entries = changed.map((target) => ({ target, contentRect: { width: width(target), height: height(target) } }) as unknown as ResizeObserverEntry)
    if (changed[0]) this.callback(entries, this as unknown as ResizeObserver)
  }
}

/** The next frame: what the page's ResizeObservers hear of, and what that sets off. */
async function frame() {
  boxes.forEach((observer) => observer.frame())
  await flush()
}

async function loadScript() {
  vi.resetModules()
  await import('../src/auto.js')
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2030-01-01T12:00:00Z') })
  service = new FakeService()
  delete window.ServiceAuth
  observers = []
  boxes = []
  vi.stubGlobal('ResizeObserver', FakeResizeObserver)
  const Native = MutationObserver
  vi.stubGlobal(
    'MutationObserver',
    class extends Native {
      constructor(callback: MutationCallback) {
        super(callback)
        observers.push(this)
      }
    },
  )
})

afterEach(() => {
  document.querySelectorAll<HTMLElement>('[data-service-auth]').forEach((el) => window.ServiceAuth?.get(el)?.destroy())
  observers.forEach((observer) => observer.disconnect())
  document.body.replaceChildren()
  delete window.ServiceAuth
  document.head.replaceChildren()
  vi.useRealTimers()
})

describe('the stylesheet', () => {
  it("is the page's own <link>: the script adds nothing to <head>", async () => {
    vi.spyOn(document, 'currentScript', 'get').mockReturnValue(
      Object.assign(document.createElement('script'), { src: 'https://cdn.example/service-auth-1.0.0.js' }),
    )
    await loadScript()
    expect(document.head.children).toHaveLength(0)
  })
})

describe('the CDN entry', () => {
  it("sets window.ServiceAuth to the module's API: the same names, the same functions", async () => {
    await loadScript()
    const module = await import('../src/index.js')
    expect(Object.keys(window.ServiceAuth!).sort()).toEqual(Object.keys(module).sort())
    for (const [name, value] of Object.entries(module)) expect(window.ServiceAuth![name as keyof typeof module], name).toBe(value)
    expect(window.ServiceAuth!.version).toBe('0.0.0-test')
  })

  it("takes its own tag's data-service-api as the service of every widget on the page that names none", async () => {
    const script = Object.assign(document.createElement('script'), { src: 'https://cdn.example/service-auth-1.0.0.js' })
    script.setAttribute('data-service-api', 'https://page.test.example/')
    vi.spyOn(document, 'currentScript', 'get').mockReturnValue(script)
    const first = widget()
    const own = widget({ 'data-service-api': 'https://own.test.example' })
    await loadScript()
    const later = widget()
    await flush()
    await flush()
    expect(service.calls.map((call) => call.url).sort()).toEqual([
      'https://own.test.example/v1/entity/challenges',
      'https://page.test.example/v1/entity/challenges',
      'https://page.test.example/v1/entity/challenges',
    ])
    expect([first, own, later].every((el) => window.ServiceAuth!.get(el))).toBe(true)
  })

  it("keeps the build's default where its tag names no service", async () => {
    vi.spyOn(document, 'currentScript', 'get').mockReturnValue(document.createElement('script'))
    widget()
    await loadScript()
    await flush()
    expect(service.creates.map((call) => call.url)).toEqual(['https://api.test.example/v1/entity/challenges'])
  })

  it('mounts the elements already on the page', async () => {
    const el = widget()
    await loadScript()
    expect(window.ServiceAuth!.get(el)).toBeDefined()
    await flush()
    expect(seen(el).image).toBe(dataSrcOf('c1'))
  })

  it('loaded twice, sets the global once and mounts each element once', async () => {
    const early = widget()
    await loadScript()
    const first = window.ServiceAuth
    await loadScript()
    expect(window.ServiceAuth).toBe(first)

    const late = widget()
    await flush()
    expect(service.creates).toHaveLength(2)
    expect(early.querySelectorAll('.sa')).toHaveLength(1)
    expect(late.querySelectorAll('.sa')).toHaveLength(1)
    expect(observers).toHaveLength(1)
  })

  it('mounts elements added later, however deep', async () => {
    await loadScript()
    const el = widget()
    const section = document.createElement('section')
    const nested = widget({}, section)
    document.body.append(section)
    expect(service.calls).toHaveLength(0)
    await flush()
    expect(window.ServiceAuth!.get(el)).toBeDefined()
    expect(window.ServiceAuth!.get(nested)).toBeDefined()
    expect(service.creates).toHaveLength(2)
    await pastFirstPaint()
    expect(seen(nested).status).toBe('Scan with the app')
  })

  it('mounts an element added as it is, not only within what is added', async () => {
    await loadScript()
    const el = widget()
    await flush()
    expect(window.ServiceAuth!.get(el)).toBeDefined()
    expect(service.creates).toHaveLength(1)
  })

  it('searches only what a batch added: a change elsewhere costs no query of the page', async () => {
    const el = widget()
    const list = document.body.appendChild(document.createElement('ul'))
    const items = Array.from({ length: 50 }, () => list.appendChild(document.createElement('li')))
    await loadScript()
    await flush()
    const queries = vi.spyOn(Element.prototype, 'querySelectorAll')
    const documentQueries = vi.spyOn(document, 'querySelectorAll')
    // Nor a look at the mounted widgets' elements, which a sweep is.
    const looks = vi.spyOn(el, 'isConnected', 'get')
    // A ticking view: one item's text each time.
    for (const [i, item] of items.entries()) {
      item.textContent = 'item ' + i
      await flush()
    }
    expect(documentQueries).not.toHaveBeenCalled()
    expect(queries).not.toHaveBeenCalled()
    expect(looks).not.toHaveBeenCalled()
    // An element added is searched, itself and what it holds, and nothing else.
    const added = list.appendChild(document.createElement('li'))
    await flush()
    expect(queries.mock.contexts).toEqual([added])
    expect(documentQueries).not.toHaveBeenCalled()
    expect(window.ServiceAuth!.get(el)).toBeDefined()
  })

  it('does not mount an element added and removed within one batch', async () => {
    await loadScript()
    const el = widget()
    el.remove()
    await flush()
    expect(window.ServiceAuth!.get(el)).toBeUndefined()
    expect(service.calls).toEqual([])
  })

  it('destroys the widgets of removed elements', async () => {
    service.poll = () => new Promise(() => {})
    const el = widget()
    await loadScript()
    await flush()
    const [poll] = service.polls()
    el.remove()
    await frame()
    expect(poll.init.signal!.aborted).toBe(true)
    expect(window.ServiceAuth!.get(el)).toBeUndefined()
    expect(el.querySelector('.sa')).toBeNull()
    const requests = service.calls.length
    await vi.advanceTimersByTimeAsync(60_000)
    expect(service.calls).toHaveLength(requests)
  })

  it('destroys at once the widget of an element removed from beside others, in the batch itself', async () => {
    service.poll = () => new Promise(() => {})
    const el = widget()
    document.body.append(document.createElement('p'))
    await loadScript()
    await flush()
    const [poll] = service.polls()
    el.remove()
    await flush()
    expect(poll.init.signal!.aborted).toBe(true)
    expect(window.ServiceAuth!.get(el)).toBeUndefined()
  })

  it('watches each element it mounted, and no longer one that left the page', async () => {
    const el = widget()
    await loadScript()
    const late = widget()
    await flush()
    expect([...boxes[0]!.observed.keys()]).toEqual([el, late])
    el.remove()
    await frame()
    expect([...boxes[0]!.observed.keys()]).toEqual([late])
    expect(window.ServiceAuth!.get(late)).toBeDefined()
    // Nor one whose widget the page destroyed.
    window.ServiceAuth!.get(late)!.destroy()
    expect([...boxes[0]!.observed.keys()]).toEqual([])
  })

  it('destroys at once the widget of an element removed with no box to lose (hidden), whose removal no box change tells', async () => {
    service.poll = () => new Promise(() => {})
    const section = document.body.appendChild(Object.assign(document.createElement('section'), { hidden: true }))
    const el = widget({}, section)
    await loadScript()
    await frame()
    const [poll] = service.polls()
    section.remove()
    await flush()
    expect(poll.init.signal!.aborted).toBe(true)
    expect(window.ServiceAuth!.get(el)).toBeUndefined()
  })

  it('sweeps at every change once a mounted element in the page was seen without a box, and not for one that had a box until it left', async () => {
    const el = widget()
    const list = document.body.appendChild(document.createElement('ul'))
    const item = list.appendChild(document.createElement('li'))
    await loadScript()
    await frame()
    const looks = vi.spyOn(el, 'isConnected', 'get')
    const gone = widget({}, document.body.appendChild(document.createElement('section')))
    await frame()
    gone.parentElement!.remove()
    await frame()
    looks.mockClear()
    item.textContent = 'a tick'
    await flush()
    expect(looks).not.toHaveBeenCalled()
    el.hidden = true
    await frame()
    looks.mockClear()
    item.textContent = 'another tick'
    await flush()
    expect(looks).toHaveBeenCalled()
  })

  it('does not mount again an element whose widget the page destroyed; mount() does, on purpose', async () => {
    const el = widget()
    await loadScript()
    await flush()
    window.ServiceAuth!.get(el)!.destroy()
    const events: string[] = []
    el.addEventListener('service-auth:ready', (event) => events.push(event.type))
    document.body.append(document.createElement('p'))
    await flush()
    expect(window.ServiceAuth!.get(el)).toBeUndefined()
    expect(el.querySelector('.sa')).toBeNull()
    expect(service.creates).toHaveLength(1)

    window.ServiceAuth!.mount(el)
    await flush()
    expect(events).toEqual(['service-auth:ready'])
    expect(service.creates).toHaveLength(2)
  })

  it('mounts again an element that comes back after it was removed', async () => {
    const el = widget()
    await loadScript()
    await flush()
    el.remove()
    await frame()
    document.body.append(el)
    await flush()
    expect(window.ServiceAuth!.get(el)).toBeDefined()
    expect(el.querySelectorAll('.sa')).toHaveLength(1)
    expect(service.creates).toHaveLength(2)
  })

  it('leaves alone an element moved within the page', async () => {
    service.poll = () => new Promise(() => {})
    const el = widget()
    await loadScript()
    await flush()
    const handle = window.ServiceAuth!.get(el)
    const [poll] = service.polls()
    document.body.appendChild(document.createElement('aside')).append(el)
    await flush()
    expect(window.ServiceAuth!.get(el)).toBe(handle)
    expect(poll.init.signal!.aborted).toBe(false)
    expect(service.creates).toHaveLength(1)
    expect(seen(el).image).toBe(dataSrcOf('c1'))
  })
})
