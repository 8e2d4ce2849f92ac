// What a person sees of the page, read through any engine's driver: each widget's code, texts and
// button, the page's address and heading. Read in the page, by functions that close over nothing.
import { readQrPng } from '../qr.js'
import { until } from '../until.js'
import type { Tab } from './driver.js'

export interface WidgetSeen {
  /** The class of the element the widget is on (`first`, `second` on the React page). */
  host: string
  /** The widget's `data-state`. */
  state: string
  /** The live region's text: "Scan with the app", "Reconnecting…". */
  status: string
  /** The code, when its image is shown and has loaded. */
  code?: { src: string; alt: string }
  /** "Expires in 01:59", when shown. */
  countdown?: string
  /** The button's text, when shown. */
  button?: string
}

export const widgetsSeen = (tab: Tab): Promise<WidgetSeen[]> =>
  tab.evaluate(() => {
    const shown = (el: Element | null): el is HTMLElement =>
      el instanceof HTMLElement && !el.hidden && el.getClientRects().length > 0 && getComputedStyle(el).visibility != 'hidden'
    return Array.from(document.querySelectorAll<HTMLElement>('[data-service-auth] > .sa'), (root) => {
      const img = root.querySelector('img')!
      const texts = root.querySelectorAll('p')
      const button = root.querySelector('button')
      return {
        host: root.parentElement!.className,
        state: root.dataset.state ?? '',
        status: texts[0]!.textContent ?? '',
        code: shown(img) && img.complete && img.naturalWidth > 0 ? { src: img.src, alt: img.alt } : undefined,
        countdown: shown(texts[1]!) ? (texts[1]!.textContent ?? '') : undefined,
        button: shown(button) ? (button!.textContent ?? '') : undefined,
      }
    })
  })

/** Until the widgets the page shows satisfy `holds`; resolves with them. */
export async function untilWidgets(tab: Tab, what: string, holds: (widgets: WidgetSeen[]) => boolean): Promise<WidgetSeen[]> {
  let last: WidgetSeen[] | undefined
  try {
    return await until(what, async () => {
      last = await widgetsSeen(tab)
      return holds(last) ? last : undefined
    })
  } catch (error) {
    throw new Error(`${(error as Error).message}; the widgets showed ${JSON.stringify(last)}`)
  }
}

/**
 * From now on, records each state the widgets show with its status text, as it is shown: a state
 * that lasts only a moment is seen however slowly the test looks. Read with statesShown().
 */
export const recordStates = (tab: Tab): Promise<void> =>
  tab.evaluate(() => {
    const shown: string[] = ((window as any).__statesShown = [])
    new MutationObserver((records) =>
      records.forEach((record) => {
        const root = record.target as HTMLElement
        const code = root.querySelector('img')!
        shown.push(`${root.dataset.state}: ${root.querySelector('[role=status]')!.textContent}${code.hidden ? '' : ', code shown'}`)
      }),
    ).observe(document, { subtree: true, attributeFilter: ['data-state'] })
  })

export const statesShown = (tab: Tab): Promise<string[]> => tab.evaluate(() => (window as any).__statesShown as string[])

/** What a phone reads off a code shown inline (a data: URL, the default). */
export function scan(code: { src: string }): string {
  const base64 = /^data:image\/png;base64,(.+)$/.exec(code.src)?.[1]
  if (!base64) throw new Error(`The code is not an inline PNG: ${code.src.slice(0, 60)}`)
  return readQrPng(Buffer.from(base64, 'base64'))
}

/** The challenge a code shows, as the phone app reads it. */
export const challengeOf = (code: { src: string }): string => scan(code).replace(/^serviceauth:challenge:/, '')

/** The widgets' events on the page, as the demo's event log records them (`ready`, `expired`, ...). */
export const eventsSeen = (tab: Tab): Promise<{ type: string; detail: Record<string, unknown> }[]> =>
  tab.evaluate(() => ((window as any).__events ?? []).map((event: any) => ({ type: event.type.replace('service-auth:', ''), detail: event.detail })))

/** The ids of the codes the page has shown, in order (their `ready` events). */
export const readyIds = async (tab: Tab): Promise<string[]> =>
  (await eventsSeen(tab)).filter((event) => event.type == 'ready').map((event) => event.detail.challengeId as string)

/** Where the browser is, the page's main heading, and whether the page has been parsed. */
export const pageSeen = (tab: Tab): Promise<{ path: string; heading: string; parsed: boolean }> =>
  tab.evaluate(() => ({
    path: location.pathname + location.search,
    heading: document.querySelector('h1')?.textContent ?? '',
    parsed: document.readyState != 'loading',
  }))

/** Until the browser shows the page at `path` (its pathname); resolves with the heading there. */
export const untilAt = async (tab: Tab, path: string): Promise<string> =>
  (
    await until(`the browser at ${path}`, async () => {
      const seen = await pageSeen(tab)
      return seen.path.split('?')[0] == path && seen.parsed ? seen : undefined
    })
  ).heading
