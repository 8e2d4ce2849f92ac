// Finds the sign-in code a page shows, as a person's phone would: it waits for a widget in the
// `ready` state (the README's public `.sa[data-state]`), takes a screenshot of its code and
// decodes the QR image. Nothing private of the widget is read.
import { TestKitError } from './errors.js'
import type { PageLike } from './page.js'
import { readQrPng } from './qr-png.js'

export interface ShownCodeOptions {
  /** How long to wait for a code on the page, in ms; default 10000. */
  timeout?: number
  /**
   * Which widget, where the page has several: a selector of its element (the one with
   * `data-service-auth`, or a `<service-auth>`), such as `'#login'`. Default: the first that shows a code.
   */
  widget?: string
}

/** The code a widget showed. */
export interface ShownCode {
  /** The challenge the code stands for. */
  challengeId: string
  /** What the QR code says. */
  text: string
  /** Which widget showed it: its place among the page's widgets (those `widget` matches), their number, and its element's id. */
  widget: { index: number; count: number; id: string | null }
}

export const DEFAULT_TIMEOUT_MS = 10_000
// The embed's elements, and the custom element's (service-auth/element).
const WIDGETS = '[data-service-auth], service-auth'
// The code on screen: the widget's image while it is `ready`. Another state shows no code to scan.
const CODE = '.sa[data-state="ready"] img[src]:not([hidden])'
// What the service's two kinds of code say: the standard one, and the extended one's URL.
const CODE_TEXT = [/^serviceauth:challenge:([^\s/]+)$/, /^https?:\/\/[^\s]+\/app\/challenge\/([^\s/?#]+)$/]

/** The code the page shows now, or the first one within `timeout`; throws a TestKitError that says what the page showed instead. */
export async function readShownCode(page: PageLike, { timeout = DEFAULT_TIMEOUT_MS, widget = WIDGETS }: ShownCodeOptions = {}): Promise<ShownCode> {
  const deadline = Date.now() + timeout
  const remaining = () => Math.max(1, deadline - Date.now())
  const hosts = page.locator(widget)
  let unreadable = false
  do {
    try {
      await hosts.locator(CODE).first().waitFor({ state: 'visible', timeout: remaining() })
    } catch (error) {
      // Anything but the wait running out (a closed page, say) is for the caller to see as it is.
      if ((error as Error | undefined)?.name !== 'TimeoutError') throw error
      break
    }
    const count = await hosts.count()
    for (let index = 0; index < count; index++) {
      const code = hosts.nth(index).locator(CODE)
      if ((await code.count()) === 0) continue
      // A code in the middle of being replaced may be gone, or not painted yet: look again.
      const text = await code
        .first()
        .screenshot({ timeout: remaining() })
        .then(readQrPng, () => undefined)
      if (text === undefined) {
        unreadable = true
        continue
      }
      const challengeId = CODE_TEXT.map((pattern) => pattern.exec(text)?.[1]).find(Boolean)
      if (!challengeId) throw new TestKitError(`the code on the page says ${JSON.stringify(text)}, which is no sign-in code of the mock service`)
      const id = await hosts
        .nth(index)
        .getAttribute('id', { timeout: 1000 })
        .catch(() => null)
      return { challengeId: decodeURIComponent(challengeId), text, widget: { index, count, id } }
    }
  } while (Date.now() < deadline)
  throw new TestKitError(
    `no sign-in code on the page after ${timeout / 1000} s${unreadable ? ' (one was shown, but its QR code could not be read)' : await whatThePageShows(page, widget)}`,
  )
}

/** Says what the widgets show instead of a code, for a timeout's message. */
export async function whatThePageShows(page: PageLike, widget: string = WIDGETS): Promise<string> {
  const hosts = page.locator(widget)
  const count = await hosts.count().catch(() => 0)
  if (count === 0) return widget === WIDGETS ? ': it has no element with data-service-auth, nor a <service-auth>' : `: nothing on it matches ${widget}`
  const shown: string[] = []
  for (let index = 0; index < count; index++) {
    const root = hosts.nth(index).locator('.sa').first()
    const state = await root.getAttribute('data-state', { timeout: 1000 }).catch(() => null)
    const status = await root
      .locator('[role="status"]')
      .first()
      .textContent({ timeout: 1000 })
      .catch(() => null)
    shown.push(state ? `${state}${status ? ` ("${status}")` : ''}` : 'not mounted')
  }
  return `: its widget${count > 1 ? 's are' : ' is'} ${shown.join(', ')}`
}
