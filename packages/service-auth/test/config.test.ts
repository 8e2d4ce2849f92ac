// readConfig is tested through what it configures: the requests a mounted widget makes, the
// texts it shows, and the console error an integrator sees for bad markup.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Pack } from '../src/i18n.js'
import { addLanguage } from '../src/language-packs.js'
import { pack as arabic } from '../src/languages/ar.js'
import { pack as german } from '../src/languages/de.js'
import { toUrl, type Options } from '../src/config.js'
import { mount, type Handle } from '../src/index.js'
import {
  API,
  CONTROLLER_URL,
  CREATE_URL,
  FakeService,
  TOKEN,
  challengeJson,
  dataSrcOf,
  flush,
  headersOf,
  held,
  pastFirstPaint,
  pastLoadingWait,
  imageUrlOf,
  recordEvents,
  seen,
  stubNavigation,
  tokenResponse,
  widget,
} from './helpers.js'

let service: FakeService
let handles: Handle[]
let consoleError: ReturnType<typeof vi.spyOn>

function mountWidget(attrs: Record<string, string> = {}, options?: Options, parent?: Element) {
  const el = widget(attrs, parent)
  handles.push(mount(el, options))
  return el
}

/** Mounts, lets the phone sign at once, and returns the request the controller received. */
async function signIn(attrs: Record<string, string> = {}, options?: Options) {
  service.poll = () => tokenResponse()
  mountWidget(attrs, options)
  await flush()
  expect(service.controllerCalls).toHaveLength(1)
  return service.controllerCalls[0]
}

const body = (n = 0) => JSON.parse(service.creates[n].init.body as string)

/** Mounts while the service holds its answer, and waits for what the person sees meanwhile. */
async function loadingWidget(attrs: Record<string, string> = {}, options?: Options) {
  service.create = () => held().promise
  const el = mountWidget(attrs, options)
  await flush()
  await pastLoadingWait()
  return el
}

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2030-01-01T12:00:00Z') })
  service = new FakeService()
  handles = []
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['en-US', 'en'])
  stubNavigation()
})

afterEach(() => {
  handles.forEach((handle) => handle.destroy())
  document.body.replaceChildren()
  document.documentElement.removeAttribute('lang')
  delete window.ServiceAuthTexts
  delete window.ServiceAuthPickLanguage
  vi.useRealTimers()
})

describe('required attributes', () => {
  /** Asserts that the widget refused to run and told the integrator which attribute is at fault. */
  async function expectRefused(el: HTMLElement, attribute: string) {
    await flush()
    expect(consoleError).toHaveBeenCalledOnce()
    expect(String(consoleError.mock.calls[0])).toContain(attribute)
    expect(service.calls).toEqual([])
    expect(seen(el).image).toBeNull()
    expect(seen(el).status).toBe('Sign-in is unavailable')
  }

  it('a complete element makes no complaint and creates a challenge', async () => {
    mountWidget()
    await flush()
    expect(consoleError).not.toHaveBeenCalled()
    expect(service.creates).toHaveLength(1)
  })

  it('names data-service-key when the key is missing, and reports a "config" error', async () => {
    const events = recordEvents(document.body)
    const el = widget()
    el.removeAttribute('data-service-key')
    handles.push(mount(el))
    await expectRefused(el, 'data-service-key')
    expect(events.map((e) => [e.type, e.detail.reason, e.detail.status])).toEqual([['error', 'config', 0]])
  })

  it('names data-service-key when the key is empty', async () => {
    await expectRefused(mountWidget({ 'data-service-key': '' }), 'data-service-key')
  })

  it('names data-service-auth-url when it is missing', async () => {
    const el = widget()
    el.removeAttribute('data-service-auth-url')
    handles.push(mount(el))
    await expectRefused(el, 'data-service-auth-url')
  })

  // Saying which: an integrator whose controller is on an API subdomain learns why at once.
  const elsewhere = "data-service-auth-url is not on this page's origin"
  const invalid = 'data-service-auth-url is missing or invalid'
  it.each([
    ['another origin', 'https://evil.example/auth/controller', elsewhere],
    ['another port of this host', 'http://localhost:3001/auth/controller', elsewhere],
    ['https on this host', 'https://localhost:3000/auth/controller', elsewhere],
    ['a protocol-relative URL to another host', '//evil.example/auth', elsewhere],
    ['a javascript: URL', 'javascript:alert(1)', invalid],
    ['a data: URL', 'data:text/html,hi', invalid],
  ])('refuses a controller on %s: the token must never leave this origin', async (_, authUrl, message) => {
    await expectRefused(mountWidget({ 'data-service-auth-url': authUrl }), message)
    expect(consoleError).toHaveBeenCalledWith(`service-auth: ${message}`)
  })

  it.each(['ftp://api.example', 'javascript:alert(1)', 'file:///etc/passwd'])('names data-service-api when it is %s', async (api) => {
    await expectRefused(mountWidget({ 'data-service-api': api }), 'data-service-api')
  })

  it('validates an option just like the attribute it replaces, and names it as mount() spells it', async () => {
    await expectRefused(mountWidget({}, { authUrl: 'https://evil.example/c' }), "authUrl is not on this page's origin")
    consoleError.mockClear()
    await expectRefused(mountWidget({}, { authUrl: 'https://[' }), 'authUrl is missing or invalid')
  })

  it("names what is missing as the markup spells it when mounted without options, and as mount()'s options do with them", async () => {
    const el = widget({ 'data-service-api': 'ftp://api.example' })
    handles.push(mount(el))
    await expectRefused(el, 'service-auth: data-service-api is missing or invalid')
    consoleError.mockClear()
    const other = widget({ 'data-service-api': 'ftp://api.example' })
    handles.push(mount(other, { locale: 'en' }))
    await expectRefused(other, 'service-auth: api is missing or invalid')
  })
})

describe('defaults', () => {
  it('creates at the built-in API with the key, asking for inline image data, and shows the standard QR', async () => {
    const el = mountWidget()
    await flush()
    expect(service.creates[0].url).toBe(CREATE_URL)
    expect(CREATE_URL.startsWith(API)).toBe(true)
    expect(body()).toEqual({ key: 'pk_test_123', returnAuthImageData: true })
    expect(seen(el).image).toBe(dataSrcOf('c1'))
  })

  it('hands the token to the controller, resolved against the page, in X-Service-Auth', async () => {
    const call = await signIn()
    expect(call.url).toBe(CONTROLLER_URL)
    expect(headersOf(call).get('X-Service-Auth')).toBe(TOKEN)
  })

  it('speaks English', async () => {
    expect(seen(await loadingWidget()).status).toBe('Loading…')
  })
})

describe('attributes', () => {
  it('reads the API base, trimming trailing slashes', async () => {
    mountWidget({ 'data-service-api': 'https://eu.api.example/base/' })
    await flush()
    expect(service.calls[0].url).toBe('https://eu.api.example/base/v1/entity/challenges')
  })

  it('reads the image kind', async () => {
    const el = mountWidget({ 'data-service-auth-image': 'qrcode-large' })
    await flush()
    expect(seen(el).image).toBe('data:image/png;base64,TGFyZ2U=')
  })

  it('data-service-image-data="false" asks for image URLs and shows one', async () => {
    const el = mountWidget({ 'data-service-image-data': 'false' })
    await flush()
    expect(body().returnAuthImageData).toBe(false)
    expect(seen(el).image).toBe(imageUrlOf('c1'))
  })

  it('data-service-image-data with any other value keeps inline data', async () => {
    mountWidget({ 'data-service-image-data': 'no' })
    await flush()
    expect(body().returnAuthImageData).toBe(true)
  })

  it('data-service-auto-start="false" waits for a click', async () => {
    const el = mountWidget({ 'data-service-auto-start': 'false' })
    await flush()
    expect(service.calls).toEqual([])
    seen(el).click()
    await flush()
    expect(service.creates).toHaveLength(1)
  })

  it('data-service-auto-start with any other value starts at once', async () => {
    mountWidget({ 'data-service-auto-start': '' })
    await flush()
    expect(service.creates).toHaveLength(1)
  })

  it('reads the controller URL and header name', async () => {
    const call = await signIn({ 'data-service-auth-url': '/login/qr?next=%2F', 'data-service-auth-header': 'X-Login-Token' })
    expect(call.url).toBe('http://localhost:3000/login/qr?next=%2F')
    expect(headersOf(call).get('X-Login-Token')).toBe(TOKEN)
  })

  it('accepts an absolute controller URL on this origin', async () => {
    const call = await signIn({ 'data-service-auth-url': CONTROLLER_URL })
    expect(call.url).toBe(CONTROLLER_URL)
  })
})

describe('options', () => {
  it('override the attributes of the same name', async () => {
    service.poll = () => tokenResponse()
    addLanguage(german)
    const el = mountWidget(
      {
        'data-service-key': 'pk_attribute',
        'data-service-auth-url': '/attribute/controller',
        'data-service-api': 'https://attribute.example',
        'data-service-auth-image': 'qrcode-standard',
        'data-service-auth-header': 'X-From-Attribute',
        'data-service-image-data': 'true',
        'data-service-locale': 'en',
        'data-service-auth-type': 'attribute',
      },
      {
        apiKey: 'pk_options',
        authUrl: '/options/controller',
        api: API,
        imageKind: 'qrcode-large',
        authHeader: 'Authorization',
        imageData: false,
        locale: 'de',
        authType: 'web',
      },
    )
    await flush()
    expect(el.querySelector('[lang]')?.getAttribute('lang')).toBe('de')
    expect(service.creates).toHaveLength(1)
    expect(body()).toEqual({ key: 'pk_options', authType: 'web', returnAuthImageData: false })
    const [call] = service.controllerCalls
    expect(call.url).toBe('http://localhost:3000/options/controller')
    expect(headersOf(call).get('Authorization')).toBe('Bearer ' + TOKEN)
    expect(headersOf(call).has('X-From-Attribute')).toBe(false)
  })

  it.each<[string, Options]>([
    ['a number', { apiKey: 42 as unknown as string }],
    ['an empty string', { apiKey: '' }],
  ])('an option of the wrong type or empty counts as missing, and says so: the key as %s', async (_, options) => {
    const el = mountWidget({}, options)
    await flush()
    expect(consoleError).toHaveBeenCalledExactlyOnceWith('service-auth: apiKey is missing or invalid')
    expect(seen(el).status).toBe('Sign-in is unavailable')
    expect(service.calls).toEqual([])
  })

  it('autoStart: false overrides the attribute', async () => {
    mountWidget({ 'data-service-auto-start': 'true' }, { autoStart: false })
    await flush()
    expect(service.calls).toEqual([])
  })

  it('texts replace single texts and keep the others', async () => {
    const el = mountWidget({}, { texts: { ready: 'Scan me' } })
    await flush()
    await pastFirstPaint()
    expect(seen(el).status).toBe('Scan me')
    expect(seen(el).alt).toBe('QR code: sign in with the app')
  })
})

describe('locale', () => {
  // The German pack, loaded before the script as its <script> tag would be.
  beforeEach(() => addLanguage(german))
  const root = (el: Element) => el.querySelector('.sa')!

  it('prefers data-service-locale', async () => {
    document.documentElement.lang = 'en'
    expect(seen(await loadingWidget({ 'data-service-locale': 'de-CH' })).status).toBe('Lädt…')
  })

  it("then the element's own lang", async () => {
    document.documentElement.lang = 'en'
    expect(seen(await loadingWidget({ lang: 'de' })).status).toBe('Lädt…')
  })

  it('then the lang of the nearest element around it', async () => {
    document.documentElement.lang = 'en'
    const section = document.body.appendChild(document.createElement('section'))
    section.lang = 'de-AT'
    service.create = () => held().promise
    const el = mountWidget({}, undefined, section)
    await flush()
    await pastLoadingWait()
    expect(seen(el).status).toBe('Lädt…')
  })

  it('then the page language', async () => {
    document.documentElement.lang = 'de-DE'
    expect(seen(await loadingWidget()).status).toBe('Lädt…')
  })

  it('then the browser languages, the first one there are texts for', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR', 'de-AT', 'en'])
    expect(seen(await loadingWidget()).status).toBe('Lädt…')
  })

  it('then English', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr-FR', 'ja'])
    const el = await loadingWidget({ 'data-service-locale': 'xx' })
    expect(seen(el).status).toBe('Loading…')
    expect(seen(el).alt).toBe('QR code: sign in with the app')
  })

  it('stays English for a German page whose pack is not loaded', async () => {
    delete window.ServiceAuthTexts
    document.documentElement.lang = 'de'
    const el = await loadingWidget({ 'data-service-locale': 'de' })
    expect(seen(el).status).toBe('Loading…')
    expect(root(el).getAttribute('lang')).toBe('en')
  })

  it('speaks English on a page without packs, whatever it asks for', async () => {
    delete window.ServiceAuthTexts
    delete window.ServiceAuthPickLanguage
    document.documentElement.lang = 'de'
    const el = await loadingWidget({ 'data-service-locale': 'de', lang: 'de' })
    expect(seen(el).status).toBe('Loading…')
    expect(root(el).getAttribute('lang')).toBe('en')
  })

  it('fills in from English what a pack lacks', async () => {
    addLanguage({ lang: 'fr', ready: 'Scannez' } as Pack)
    const el = await loadingWidget({ 'data-service-locale': 'fr' })
    expect(seen(el).status).toBe('Loading…')
  })

  it('labels the widget with its language, for screen readers', async () => {
    const el = await loadingWidget({ 'data-service-locale': 'de' })
    expect(root(el).getAttribute('lang')).toBe('de')
    expect(root(el).getAttribute('dir')).toBe('ltr')
  })

  it('lays a right-to-left language out right to left, and English on a right-to-left page left to right', async () => {
    addLanguage(arabic)
    document.documentElement.lang = 'ar'
    document.documentElement.dir = 'rtl'
    const ar = await loadingWidget()
    expect(seen(ar).status).toBe('جارٍ التحميل…')
    expect([root(ar).getAttribute('lang'), root(ar).getAttribute('dir')]).toEqual(['ar', 'rtl'])
    const en = await loadingWidget({ 'data-service-locale': 'en' })
    expect([root(en).getAttribute('lang'), root(en).getAttribute('dir')]).toEqual(['en', 'ltr'])
    document.documentElement.removeAttribute('dir')
  })

  it('speaks the language of a pack loaded after the script but before the view is built', async () => {
    delete window.ServiceAuthTexts
    delete window.ServiceAuthPickLanguage
    service.create = () => held().promise
    const el = mountWidget({ 'data-service-locale': 'de' })
    addLanguage(german)
    await flush()
    await pastLoadingWait()
    expect(seen(el).status).toBe('Lädt…')
  })
})

describe('app URL (data-service-app-url)', () => {
  const touch = (coarse: boolean) =>
    vi.spyOn(window, 'matchMedia').mockImplementation((query) => ({ matches: coarse && query == '(pointer:coarse)', media: query }) as MediaQueryList)
  const link = (el: HTMLElement) => el.querySelector('a[href]')?.getAttribute('href') ?? null

  it('on a touch device, links the code to the app for this challenge, its id encoded', async () => {
    touch(true)
    service.create = () => Response.json(challengeJson('c 1/ü'), { status: 201 })
    const el = mountWidget({ 'data-service-app-url': 'serviceauth://challenge/{id}?from=web' })
    await flush()
    expect(link(el)).toBe('serviceauth://challenge/c%201%2F%C3%BC?from=web')
    expect(seen(el).image).toBe(dataSrcOf('c 1/ü'))
  })

  it('is an option too', async () => {
    touch(true)
    const el = mountWidget({}, { appUrl: 'https://app.example/c/{id}' })
    await flush()
    expect(link(el)).toBe('https://app.example/c/c1')
  })

  it('with a mouse, leaves the code an image to scan', async () => {
    touch(false)
    const el = mountWidget({ 'data-service-app-url': 'serviceauth://challenge/{id}' })
    await flush()
    expect(seen(el).image).toBe(dataSrcOf('c1'))
    expect(link(el)).toBeNull()
  })

  it('says to tap the code rather than scan it, where it is a link', async () => {
    touch(true)
    const el = mountWidget({ 'data-service-app-url': 'serviceauth://challenge/{id}' })
    await flush()
    await pastFirstPaint()
    expect(seen(el).status).toBe('Tap to open the app')
  })

  it.each([
    ['{id}:alert(1)', 'javascript'],
    ['{id}:alert(1)', 'JavaScript'],
    ['{id}:text/html,x', 'data'],
    ['{id}:https://api.test.example/x', 'blob'],
    ['{id}:///etc/passwd', 'file'],
  ])('never links the code to a script URL made from the template %s and the id %s', async (appUrl, id) => {
    touch(true)
    service.create = () => Response.json(challengeJson(id), { status: 201 })
    const el = mountWidget({ 'data-service-app-url': appUrl })
    await flush()
    expect(link(el)).toBeNull()
    // Still a code to scan with another phone.
    expect(seen(el).image).toBe(dataSrcOf(id))
    await pastFirstPaint()
    expect(seen(el).status).toBe('Scan with the app')
  })

  it.each([
    'javascript:alert(1)//{id}',
    ' JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'http://[bad/{id}',
    'blob:https://app.example/{id}',
    'file:///app/{id}',
  ])('refuses %s by name, on any device', async (appUrl) => {
    touch(false)
    const el = mountWidget({ 'data-service-app-url': appUrl })
    await flush()
    expect(consoleError).toHaveBeenCalledWith('service-auth: data-service-app-url is missing or invalid')
    expect(seen(el).status).toBe('Sign-in is unavailable')
    expect(service.calls).toEqual([])
  })
})

describe('toUrl', () => {
  it('resolves a path against the page and keeps http(s) URLs', () => {
    expect(toUrl('/a?b=1')?.href).toBe('http://localhost:3000/a?b=1')
    expect(toUrl('https://x.example/y')?.href).toBe('https://x.example/y')
  })

  it.each([undefined, null, '', 42, 'javascript:alert(1)', 'data:,x', 'mailto:a@b.example', 'http://[bad', 'web+https://x.example/'])('refuses %s', (value) => {
    expect(toUrl(value)).toBeUndefined()
  })
})

describe('an image kind the service does not offer (data-service-auth-image)', () => {
  it('is a config error naming the attribute and the kinds offered, with no retry and no button', async () => {
    const el = mountWidget({ 'data-service-auth-image': 'bogus' })
    await vi.advanceTimersByTimeAsync(120_000)
    expect(consoleError).toHaveBeenCalledWith('service-auth: data-service-auth-image is missing or invalid; offered: qrcode-standard,qrcode-large')
    expect(seen(el).status).toBe('Sign-in is unavailable')
    expect(seen(el).button).toBeNull()
    expect(service.creates).toHaveLength(1)
    // Nor does start() try again: the markup must change first.
    handles[0].start()
    await flush()
    expect(service.creates).toHaveLength(1)
  })
})
