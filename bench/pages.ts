// The bench's own pages, served by the demo app on its origin (startDemo's `pages`): the widget as
// an integrator embeds it, and the naive baseline. Bare on purpose: no demo stylesheet, no event
// log, nothing but what is measured and a few lines of instrumentation that run before it.
import type { Page } from '@playwright/test'
import { readFileSync } from 'node:fs'
import type { ExtraPage } from 'service-auth-demo'

export const BASELINE_SCRIPT = readFileSync(new URL('./baseline.js', import.meta.url), 'utf8')

export const WIDGET_PATH = '/bench/widget'
export const BUSY_PATH = '/bench/busy'
export const BASELINE_PATH = '/bench/baseline'
/** Where the controller sends the browser after a sign-in (the demo app's page). */
export const LANDING_PATH = '/welcome'
export const BUNDLE_PATH = '/service-auth.js'

// Counts, never lists: the memory phase reads the heap after hundreds of refreshes, and a log
// growing in the page would be a leak of the bench's own. Layout shifts are counted too: on this
// bare page only the widget can move anything. When the page goes (after a sign-in), it leaves
// its request timings in sessionStorage for the bench to read on the page that follows.
const COUNTERS = `window.__bench = { ready: 0, lastId: null, visible: null, shifts: 0, shiftScore: 0 }
addEventListener('service-auth:ready', (e) => { __bench.ready++; __bench.lastId = e.detail.challengeId })
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (!entry.hadRecentInput) { __bench.shifts++; __bench.shiftScore += entry.value }
}).observe({ type: 'layout-shift', buffered: true })
addEventListener('pagehide', () => sessionStorage.setItem('bench:left', JSON.stringify({
  timeOrigin: performance.timeOrigin,
  requests: performance.getEntriesByType('resource').map(({ name, startTime, responseEnd }) => ({ name, startTime, responseEnd })),
})))`

/** What the page logs once it has recorded the QR code's paint (see PAINT_TIMING). */
export const PAINTED = 'bench:painted'

// "QR visible" is when the browser painted the image, by the Element Timing API. The attribute has
// to be on the <img> before it paints; the widget creates it empty with its view, and the observer
// tags it in the microtask after, then stops observing so it costs nothing later. The page says
// when it has the time on the console, which the bench listens to: it sends no script of its own
// into the page before then (see startup.ts).
const PAINT_TIMING = `new MutationObserver((records, observer) => {
  const img = document.querySelector('[data-service-auth] img, #baseline img')
  if (img) { img.setAttribute('elementtiming', 'qr'); observer.disconnect() }
}).observe(document, { childList: true, subtree: true })
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if (entry.identifier === 'qr' && !__bench.visible) {
    __bench.visible = entry.renderTime || entry.loadTime
    console.debug('${PAINTED}')
  }
}).observe({ type: 'element', buffered: true })`

/**
 * Resolves once a `?timing=1` page has recorded its QR code's paint, which it says on the console;
 * to be called before the navigation. Nothing of the bench runs in the page until then. The bench
 * used to poll with waitForFunction, whose first poll injects Playwright's script into the page: a
 * task of 32 to 47 ms on the 2-core machine, which profiling found between the challenge's answer
 * and the paint, in both arms.
 */
export const painted = (page: Page): Promise<unknown> => page.waitForEvent('console', { predicate: (message) => message.text() === PAINTED, timeout: 15_000 })

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

/** `?text=1`: what a login page has above its sign-in, so that the page, not the widget, lays out its first text. */
const pageText = (url: URL) => (url.searchParams.get('text') === '1' ? '<h1>Sign in</h1>\n<p>Scan the code with the app on your phone.</p>\n' : '')

function page(title: string, headScript: string, body: string, headLinks = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<link rel="icon" href="data:,">${headLinks}
<script>${headScript}</script>
</head>
<body>
${body}
</body>
</html>
`
}

/**
 * `?image-data=false` for image URLs; `?timing=1` adds the paint instrumentation; `?text=1` a heading and a line above; `?preconnect=1`
 * a `<link rel="preconnect">` to the service, as the README advises. With `crossorigin`: the
 * challenge request is a CORS request without credentials, and Chromium keeps such connections
 * apart from those that carry credentials, so a preconnect without it opens one nobody uses.
 */
const widget: ExtraPage = ({ serviceUrl, apiKey, url }) => {
  const timing = url.searchParams.get('timing') === '1'
  const imageData = url.searchParams.get('image-data') !== 'false'
  const preconnect = url.searchParams.get('preconnect') === '1' ? `\n<link rel="preconnect" href="${escapeHtml(new URL(serviceUrl).origin)}" crossorigin>` : ''
  // The mark sits right before the embed's tag: the script starts when both the parser got here and its bytes arrived.
  return page(
    'Bench: widget',
    timing ? `${COUNTERS}\n${PAINT_TIMING}` : COUNTERS,
    `${pageText(url)}<div data-service-auth data-service-key="${escapeHtml(apiKey)}" data-service-api="${escapeHtml(serviceUrl)}" data-service-auth-url="/auth/controller" data-service-image-data="${imageData}"></div>
<script>performance.mark('bench:script-start')</script>
<script src="${BUNDLE_PATH}"></script>`,
    preconnect,
  )
}

/** ` data-words` for `?words=1`, and so on: the baseline's options, from the page's query. */
const flags = (url: URL, ...names: string[]) => names.map((name) => (url.searchParams.get(name) === '1' ? ` data-${name}` : '')).join('')

const baseline: ExtraPage = ({ serviceUrl, apiKey, url }) =>
  page(
    'Bench: naive baseline',
    url.searchParams.get('timing') === '1' ? `${COUNTERS}\n${PAINT_TIMING}` : COUNTERS,
    `${pageText(url)}<div id="baseline"></div>
<script>performance.mark('bench:script-start')</script>
<script src="${BASELINE_PATH}.js" data-api="${escapeHtml(serviceUrl)}" data-key="${escapeHtml(apiKey)}"${flags(url, 'words', 'markup')}></script>`,
  )

/**
 * Times what the page's MutationObserver callbacks do themselves, in `window.__observer` (calls,
 * ms): the widget's observer work alone, without what delivering the records costs the browser,
 * which the difference of two pages' totals holds too but cannot tell apart from a busy machine's
 * noise. Two clock reads a batch are all it adds, and timing an observer that does nothing the
 * same way measures those, and the clock's coarseness.
 */
const OBSERVER_TIMING = `<script>{ const Native = MutationObserver; const timed = window.__observer = { calls: 0, ms: 0 }
  window.MutationObserver = class extends Native { constructor(callback) { super((records, observer) => { const start = performance.now()
    try { callback(records, observer) } finally { timed.calls++; timed.ms += performance.now() - start } }) } } }</script>`

/**
 * A page the size of a big single-page app (`?nodes=`, default 5,000 list items) that changes
 * one item's text every animation frame, as a ticking view does (`?mutate=0` keeps it still),
 * with or without the widget (`?embed=0`): what the CDN build's MutationObserver costs it. With
 * `?observer=1`, an observer of the same changes that does nothing: what any such observer costs
 * the page before its callback does anything. The list is not rendered, so that its layout does
 * not drown the figure; observers see its changes all the same.
 */
const busy: ExtraPage = ({ serviceUrl, apiKey, url }) => {
  const nodes = Math.min(Number(url.searchParams.get('nodes') ?? 5000), 50_000)
  const mutate = url.searchParams.get('mutate') !== '0'
  const embed = url.searchParams.get('embed') !== '0'
  const observer = url.searchParams.get('observer') === '1'
  // Cross-origin isolated, so that performance.now() steps by 5 µs rather than 100 µs: a callback
  // of a few microseconds, timed by a coarse clock, reads mostly the clock's step and jitter.
  // Everything the page loads allows it: its own script, and CORS requests to the service.
  return { headers: ISOLATED, body: busyPage(serviceUrl, apiKey, { nodes, mutate, embed, observer }) }
}

const ISOLATED = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' }

function busyPage(
  serviceUrl: string,
  apiKey: string,
  { nodes, mutate, embed, observer }: { nodes: number; mutate: boolean; embed: boolean; observer: boolean },
) {
  return page(
    'Bench: a busy page',
    COUNTERS,
    `${embed ? `<div data-service-auth data-service-key="${escapeHtml(apiKey)}" data-service-api="${escapeHtml(serviceUrl)}" data-service-auth-url="/auth/controller"></div>` : ''}
<ul id="items" hidden>${'<li>item</li>'.repeat(nodes)}</ul>
${
  mutate
    ? `<script>{ const items = document.getElementById('items').children; let i = 0
  const tick = () => { items[i++ % items.length].textContent = 'item ' + i; window.__frames = i; requestAnimationFrame(tick) }
  requestAnimationFrame(tick) }</script>`
    : ''
}
${embed ? `${OBSERVER_TIMING}\n<script src="${BUNDLE_PATH}"></script>` : ''}
${observer ? `${OBSERVER_TIMING}\n<script>new MutationObserver(() => {}).observe(document, { childList: true, subtree: true })</script>` : ''}`,
  )
}

export const BENCH_PAGES: Record<string, ExtraPage> = {
  [WIDGET_PATH]: widget,
  [BUSY_PATH]: busy,
  [BASELINE_PATH]: baseline,
  [`${BASELINE_PATH}.js`]: () => BASELINE_SCRIPT,
}
