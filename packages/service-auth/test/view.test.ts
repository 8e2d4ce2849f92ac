import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest'
import { english } from '../src/i18n.js'
import { pack as arabic } from '../src/languages/ar.js'
import { pack as german } from '../src/languages/de.js'
import { pack as persian } from '../src/languages/fa.js'
import { createView, type View } from '../src/view.js'
import { seen } from './helpers.js'

const texts = english
const SRC = 'data:image/png;base64,iVBORw0KGgo='
let host: HTMLElement
let view: View
/** What the button runs. */
let action: Mock<() => void>
/** What hears of each QR image on show: nothing when it loaded, its source when it did not. */
let onImage: Mock<(failed?: string) => void>

beforeEach(() => {
  vi.useFakeTimers({ now: new Date('2030-01-01T12:00:00Z') })
  host = document.body.appendChild(document.createElement('div'))
  action = vi.fn()
  onImage = vi.fn()
  view = createView(host, texts, action, onImage)
})

afterEach(() => {
  view.dispose()
  document.body.replaceChildren()
  vi.useRealTimers()
})

describe('the QR image', () => {
  it('says that an image loaded, or which did not, and nothing else', () => {
    view.show('ready', { imageSrc: SRC })
    const img = host.querySelector('img')!
    onImage.mockClear()
    img.dispatchEvent(new Event('load'))
    img.dispatchEvent(new Event('error'))
    expect(onImage.mock.calls).toEqual([[], [SRC]])
  })

  it('says nothing of an image that fails once it is no longer shown', () => {
    view.show('ready', { imageSrc: SRC })
    view.show('signing')
    onImage.mockClear()
    host.querySelector('img')!.dispatchEvent(new Event('error'))
    expect(onImage).not.toHaveBeenCalled()
  })
})

describe('states', () => {
  it.each([
    ['loading', 'Loading…'],
    ['ready', 'Scan with the app'],
    ['reconnecting', 'Reconnecting…'],
    ['signing', 'Signing in…'],
    ['expired', 'Code expired'],
    ['error', 'Sign-in is unavailable'],
  ] as const)('%s says "%s" in the status line', (state, text) => {
    view.show(state)
    expect(seen(host).status).toBe(text)
  })

  it('idle says nothing', () => {
    view.show('loading')
    view.show('idle', { button: true })
    expect(seen(host).status).toBe('')
  })

  it('has a polite live status line, and an alt text on the image', () => {
    view.show('ready', { imageSrc: SRC })
    const status = host.querySelector('[role=status]')!
    expect(status.textContent).toBe('Scan with the app')
    expect(seen(host).alt).toBe('QR code: sign in with the app')
  })

  it('a message replaces the state text', () => {
    view.show('ready', { imageSrc: SRC, message: 'failed' })
    expect(seen(host).status).toBe('Sign-in failed')
  })

  it('leaves unchanged text alone, so screen readers do not hear it again', async () => {
    view.show('ready', { imageSrc: SRC })
    const changes: MutationRecord[] = []
    const observer = new MutationObserver((records) => changes.push(...records))
    observer.observe(host.querySelector('[role=status]')!, { childList: true, characterData: true, subtree: true })
    view.show('ready', { imageSrc: SRC })
    view.show('reconnecting', { imageSrc: SRC, message: 'ready' })
    await vi.advanceTimersByTimeAsync(0)
    observer.disconnect()
    expect(changes).toEqual([])
  })
})

describe('image', () => {
  it('is shown with its src only when there is one', () => {
    view.show('loading')
    expect(seen(host).image).toBeNull()
    view.show('ready', { imageSrc: SRC })
    expect(seen(host).image).toBe(SRC)
    view.show('reconnecting', { imageSrc: SRC })
    expect(seen(host).image).toBe(SRC)
    view.show('expired', { button: true })
    expect(seen(host).image).toBeNull()
    expect(host.querySelector('img')!.hasAttribute('src')).toBe(false)
  })

  it('is not loaded again while the same code stays shown through other states', async () => {
    view.show('ready', { imageSrc: SRC })
    const sets: MutationRecord[] = []
    const observer = new MutationObserver((records) => sets.push(...records))
    observer.observe(host, { subtree: true, attributeFilter: ['src'] })
    view.show('reconnecting', { imageSrc: SRC })
    view.show('ready', { imageSrc: SRC, link: 'serviceauth://challenge/c1' })
    view.show('ready', { imageSrc: SRC })
    await Promise.resolve()
    observer.disconnect()
    // Setting src, even to the same URL, would fetch and decode the image again: it flickers.
    expect(sets).toEqual([])
  })

  it('switches to a new code', () => {
    view.show('ready', { imageSrc: SRC })
    view.show('ready', { imageSrc: 'https://api.test.example/qr/2.png' })
    expect(seen(host).image).toBe('https://api.test.example/qr/2.png')
  })

  it('keeps a placeholder of the same size while there is no image', () => {
    view.show('loading')
    const img = host.querySelector('img')!
    expect(img.parentElement!.hidden).toBe(false)
    expect(img.parentElement).not.toBe(host.querySelector('.sa'))
  })
})

describe('button', () => {
  it('is there only when offered', () => {
    view.show('ready', { imageSrc: SRC })
    expect(seen(host).button).toBeNull()
    view.show('expired', { button: true })
    expect(seen(host).button).toBe('Show a new code')
    view.show('loading')
    expect(seen(host).button).toBeNull()
  })

  it('says "Try again" after an error, and "Show a new code" otherwise', () => {
    view.show('error', { button: true })
    expect(seen(host).button).toBe('Try again')
    view.show('expired', { button: true })
    expect(seen(host).button).toBe('Show a new code')
    view.show('idle', { button: true })
    expect(seen(host).button).toBe('Show a new code')
  })

  it('leaves the widget out of the tab order, yet focusable by script', () => {
    const root = host.querySelector<HTMLElement>('.sa')!
    expect(root.getAttribute('tabindex')).toBe('-1')
  })

  it('hands focus to the widget when clicked, as the button then goes away', () => {
    action.mockImplementation(() => view.show('loading'))
    view.show('error', { button: true })
    const button = host.querySelector('button')!
    button.focus()
    button.click()
    expect(seen(host).button).toBeNull()
    expect(document.activeElement).toBe(host.querySelector('.sa'))
  })

  it('is a type=button, so it never submits a surrounding form', () => {
    view.show('expired', { button: true })
    expect(host.querySelector('button')!.type).toBe('button')
  })

  it('runs the action when clicked', () => {
    view.show('expired', { button: true })
    view.show('error', { button: true })
    seen(host).click()
    expect(action).toHaveBeenCalledOnce()
  })

  it('does nothing once its state is gone', () => {
    view.show('expired', { button: true })
    const button = host.querySelector('button')!
    view.show('loading')
    button.click()
    expect(action).not.toHaveBeenCalled()
  })
})

describe('app link', () => {
  const link = () => host.querySelector('a')!

  it('makes the code a link while there is one', () => {
    view.show('ready', { imageSrc: SRC, link: 'serviceauth://challenge/c1' })
    expect(link().getAttribute('href')).toBe('serviceauth://challenge/c1')
    expect(link().contains(host.querySelector('img'))).toBe(true)
  })

  it('is no link without one: neither focusable nor announced as a link', () => {
    view.show('ready', { imageSrc: SRC, link: 'serviceauth://challenge/c1' })
    view.show('signing')
    expect(link().hasAttribute('href')).toBe(false)
    view.show('ready', { imageSrc: SRC })
    expect(link().hasAttribute('href')).toBe(false)
  })

  it('hands focus on it to the widget when it goes, rather than let it fall to the page; a link that stays keeps it', () => {
    view.show('ready', { imageSrc: SRC, link: 'serviceauth://challenge/c1' })
    link().focus()
    view.show('reconnecting', { imageSrc: SRC, link: 'serviceauth://challenge/c1' })
    expect(document.activeElement).toBe(link())
    view.show('signing')
    expect(document.activeElement).toBe(host.querySelector('.sa'))
    // Focus elsewhere on the page stays where it is.
    const outside = document.body.appendChild(document.createElement('button'))
    view.show('ready', { imageSrc: SRC, link: 'serviceauth://challenge/c2' })
    outside.focus()
    view.show('signing')
    expect(document.activeElement).toBe(outside)
    outside.remove()
  })

  it('says to tap it only while ready: a code that stays a link while reconnecting says it is reconnecting', () => {
    view.show('ready', { imageSrc: SRC, link: 'serviceauth://challenge/c1' })
    expect(seen(host).status).toBe('Tap to open the app')
    view.show('reconnecting', { imageSrc: SRC, link: 'serviceauth://challenge/c1' })
    expect(seen(host).status).toBe('Reconnecting…')
    expect(link().getAttribute('href')).toBe('serviceauth://challenge/c1')
  })
})

describe('countdown', () => {
  it('shows "Expires in mm:ss" and counts down each second', async () => {
    view.show('ready', { imageSrc: SRC, deadline: Date.now() + 90_000 })
    expect(seen(host).countdown).toBe('Expires in 01:30')
    await vi.advanceTimersByTimeAsync(1000)
    expect(seen(host).countdown).toBe('Expires in 01:29')
    await vi.advanceTimersByTimeAsync(29_000)
    expect(seen(host).countdown).toBe('Expires in 01:00')
    await vi.advanceTimersByTimeAsync(59_000)
    expect(seen(host).countdown).toBe('Expires in 00:01')
  })

  it('rounds up, and stops at 00:00', async () => {
    view.show('ready', { imageSrc: SRC, deadline: Date.now() + 1500 })
    expect(seen(host).countdown).toBe('Expires in 00:02')
    await vi.advanceTimersByTimeAsync(5000)
    expect(seen(host).countdown).toBe('Expires in 00:00')
  })

  it('is outside the live region, so the time is not read out every second', () => {
    view.show('ready', { imageSrc: SRC, deadline: Date.now() + 60_000 })
    expect(host.querySelector('[role=status]')!.textContent).not.toContain('Expires')
    expect(host.querySelector('[aria-live] , [role=status]')!.contains(host.querySelector('.sa p:not([role])'))).toBe(false)
  })

  it('is hidden without a deadline, and stops ticking', async () => {
    view.show('ready', { imageSrc: SRC, deadline: Date.now() + 60_000 })
    view.show('signing')
    expect(seen(host).countdown).toBeNull()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('runs one ticker however often it is shown', () => {
    for (let i = 0; i < 5; i++) view.show('ready', { imageSrc: SRC, deadline: Date.now() + 60_000 })
    expect(vi.getTimerCount()).toBe(1)
  })

  it('speaks the configured language', () => {
    view.dispose()
    view = createView(host, { ...english, ...german }, action, onImage)
    view.show('ready', { imageSrc: SRC, deadline: Date.now() + 61_000 })
    expect(seen(host).countdown).toBe('Läuft ab in 01:01')
    expect(seen(host).status).toBe('Mit der App scannen')
    expect(host.querySelector('.sa')!.getAttribute('lang')).toBe('de')
    expect(host.querySelector('.sa')!.getAttribute('dir')).toBe('ltr')
  })

  it.each([
    { pack: arabic, lang: 'ar', countdown: 'ينتهي خلال ٠١:٠١', hours: '١:٠٠:٠٠' },
    { pack: persian, lang: 'fa', countdown: 'زمان باقی\u200cمانده: ۰۱:۰۱', hours: '۱:۰۰:۰۰' },
  ])('writes $lang right to left, and its countdown in its own digits', ({ pack, countdown, hours }) => {
    view.dispose()
    view = createView(host, { ...english, ...pack }, action, onImage)
    view.show('ready', { imageSrc: SRC, deadline: Date.now() + 61_000 })
    expect(seen(host).countdown).toBe(countdown)
    expect(host.querySelector('.sa')!.getAttribute('dir')).toBe('rtl')
    expect(host.querySelector('.sa')!.getAttribute('lang')).toBe(pack.lang)
    view.show('ready', { imageSrc: SRC, deadline: Date.now() + 3_600_000 })
    expect(seen(host).countdown).toContain(hours)
  })
})

describe('destroy', () => {
  it('removes what it added, keeps the integrator’s children, and stops the countdown', () => {
    view.dispose()
    host.replaceChildren()
    const own = host.appendChild(document.createElement('p'))
    own.textContent = 'Or sign in with a password'
    view = createView(host, texts, action, onImage)
    expect(host.children).toHaveLength(2)
    expect(host.firstElementChild).toBe(own)
    view.show('ready', { imageSrc: SRC, deadline: Date.now() + 60_000 })
    view.dispose()
    expect([...host.childNodes]).toEqual([own])
    expect(own.textContent).toBe('Or sign in with a password')
    expect(vi.getTimerCount()).toBe(0)
  })

  it('adds no inline styles or markup strings (CSP-safe)', () => {
    view.show('ready', { imageSrc: SRC, deadline: Date.now() + 60_000 })
    expect(host.querySelectorAll('[style], style, script')).toHaveLength(0)
  })
})
