// The scenarios every engine runs, each a function of a Tab (driver.ts) and the mock service's
// knobs: the test decides when a phone signs, a code expires or the service fails, and waits on
// what the person sees, never on time. Runner-neutral: node:assert, no test framework.
import assert from 'node:assert/strict'
import type { Demo } from 'service-auth-demo'
import type { Service } from '../service.js'
import { until } from '../until.js'
import type { EngineName, Tab } from './driver.js'
import type { PageRecord } from '../react-page.js'
import { challengeOf, eventsSeen, readyIds, recordStates, statesShown, untilAt, untilWidgets, widgetsSeen } from './seen.js'

export interface Stage {
  tab: Tab
  service: Service
  demo: Demo
  engine: EngineName
}

export interface Scenario {
  name: string
  run(stage: Stage): Promise<void>
  /** Console messages this scenario causes on purpose, besides each engine's own list (suite.ts). */
  expectedMessages?: RegExp[]
}

/** A /fixture URL on the demo app (see demo/README.md for the parameters). */
const fixture = (demo: Demo, params: Record<string, string | number> = {}) =>
  `${demo.appUrl}/fixture?${new URLSearchParams(Object.entries(params).map(([name, value]) => [name, String(value)]))}`

const SCAN = 'Scan with the app'
const ALT = 'QR code: sign in with the app'
const COUNTDOWN = /^Expires in \d\d:\d\d$/

/** Until the one widget on the page shows a code ready to scan; resolves with the challenge it shows. */
async function untilCode(tab: Tab): Promise<{ id: string; src: string }> {
  const [widget] = await untilWidgets(tab, `a code, and "${SCAN}"`, ([widget]) => !!widget?.code && widget.status == SCAN)
  return { id: challengeOf(widget!.code!), src: widget!.code!.src }
}

/** Signs the code on screen, and sees the browser land on the controller's page. */
async function signAndLand(tab: Tab, service: Service, id: string, identifier = 'user@example.com'): Promise<void> {
  await service.sign(id, identifier)
  assert.equal(await untilAt(tab, '/welcome'), `Welcome, ${identifier}`)
}

/**
 * An outage of the status polls, failing with `rule` until the widget says it is reconnecting:
 * the code stays shown meanwhile, and once the outage ends it is ready again and still signs in.
 * The states are recorded as they are shown, so however briefly one lasts, the test sees it.
 * Resolves with the reasons of the widget's error events.
 */
async function pollOutage(tab: Tab, service: Service, rule: { status: number; network?: boolean }): Promise<string[]> {
  const { id } = await untilCode(tab)
  await recordStates(tab)
  // Plenty: a browser may try a request again by itself before the page sees it fail (Firefox
  // does, up to ten times, when a connection drops unanswered).
  await service.fail({ ...rule, count: 1000, match: 'status' })
  await until('"Reconnecting…"', async () => (await statesShown(tab)).some((state) => state.startsWith('reconnecting')))
  await service.endFailures()
  const states = await until('the code ready again', async () => {
    const states = await statesShown(tab)
    return states.slice(states.findIndex((state) => state.startsWith('reconnecting'))).some((state) => state.startsWith('ready')) ? states : undefined
  })
  for (const state of states) assert.match(state, /^(reconnecting: Reconnecting…|ready: Scan with the app), code shown$/)
  const reasons = (await eventsSeen(tab)).filter((event) => event.type == 'error').map((event) => event.detail.reason as string)
  await signAndLand(tab, service, id)
  return reasons
}

export const scenarios: Scenario[] = [
  {
    name: 'signs in: the code shown, the phone signs it, and the browser lands where the controller redirects',
    async run({ tab, service, demo }) {
      // A controller that answers with a redirect rather than JSON {location} (which the other
      // scenarios' controller sends): the widget goes where the redirect ended.
      await tab.goto(fixture(demo, { 'auth-url': '/auth/controller?mode=redirect' }))
      const [widget] = await untilWidgets(tab, 'a code with its countdown', ([widget]) => !!widget?.code && COUNTDOWN.test(widget.countdown ?? ''))
      assert.equal(widget!.status, SCAN)
      assert.equal(widget!.code!.alt, ALT)
      const id = challengeOf(widget!.code!)
      assert.deepEqual(await readyIds(tab), [id])
      await signAndLand(tab, service, id)
      const [call] = await service.controllerLog()
      assert.equal(call?.query, 'mode=redirect')
      assert.equal(call?.valid, true)
    },
  },
  {
    name: 'a code that expires is replaced by a new one, in the same document',
    async run({ tab, service, demo }) {
      await tab.goto(fixture(demo))
      await tab.evaluate(() => ((window as any).sameDocument = true))
      const first = await untilCode(tab)
      await service.expireChallenge(first.id)
      const [widget] = await untilWidgets(tab, 'another code', ([widget]) => !!widget?.code && widget.code.src != first.src && widget.status == SCAN)
      const second = challengeOf(widget!.code!)
      assert.notEqual(second, first.id)
      assert.deepEqual(
        (await eventsSeen(tab)).map((event) => event.type),
        ['ready', 'expired', 'ready'],
      )
      assert.equal(await tab.evaluate(() => (window as any).sameDocument), true)
      await signAndLand(tab, service, second)
    },
  },
  {
    name: 'a 503 while polling shows "Reconnecting…" over the code, then recovers and signs in',
    async run({ tab, service, demo }) {
      await tab.goto(fixture(demo))
      const reasons = await pollOutage(tab, service, { status: 503 })
      assert.ok(reasons.length >= 1 && reasons.every((reason) => reason == 'service'), `errors: ${reasons}`)
    },
  },
  {
    name: 'a dropped connection while polling shows "Reconnecting…" over the code, then recovers and signs in',
    async run({ tab, service, demo }) {
      await tab.goto(fixture(demo))
      const reasons = await pollOutage(tab, service, { status: 502, network: true })
      assert.ok(reasons.length >= 1 && reasons.every((reason) => reason == 'network'), `errors: ${reasons}`)
    },
  },
  {
    name: 'a 429 with Retry-After: "Reconnecting…", no new request before it says, then a code',
    async run({ tab, service, demo }) {
      // Both creations wait for the test: the first until the states are being recorded, the
      // second (surely the retry) until the test has looked.
      await service.hold({ match: 'create', count: 2 })
      await service.fail({ status: 429, retryAfter: '1', match: 'create', count: 1 })
      await tab.goto(fixture(demo))
      await service.untilHeld('create')
      await recordStates(tab)
      await service.release()
      await service.untilHeld('create')
      // The retry keeps "Reconnecting…" until its code comes, or says "Loading…" once that code is
      // 300 ms late (held here, it may be).
      const [refusal, ...then] = await statesShown(tab)
      assert.equal(refusal, 'reconnecting: Reconnecting…')
      assert.ok(
        then.every((state) => state == 'loading: Loading…'),
        `then: ${then}`,
      )
      const [error] = (await eventsSeen(tab)).filter((event) => event.type == 'error')
      assert.deepEqual(error?.detail, { reason: 'service', status: 429, retryAfter: 1000 })
      await service.release()
      await untilCode(tab)
      // The browser's own clock (Resource Timing): from the 429's arrival to the retry's start.
      const [refused, retry] = await tab.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => new URL(entry.name).pathname == '/v1/entity/challenges')
          .map((entry) => ({ start: entry.startTime, end: (entry as PerformanceResourceTiming).responseEnd })),
      )
      assert.ok(retry!.start - refused!.end >= 980, `retried ${retry!.start - refused!.end} ms after the 429`)
    },
  },
  {
    name: 'under a strict CSP with Trusted Types required: no violation, and sign-in',
    async run({ tab, service, demo }) {
      const url = fixture(demo, { csp: 'strict', sri: 1 })
      const policy = (await fetch(url)).headers.get('content-security-policy') ?? ''
      assert.match(policy, /require-trusted-types-for 'script'/)
      assert.match(policy, /default-src 'none'/)
      assert.doesNotMatch(policy, /unsafe-inline/)
      await tab.goto(url)
      const { id } = await untilCode(tab)
      assert.deepEqual(await tab.evaluate(() => (window as any).__violations), [])
      await service.sign(id)
      await untilAt(tab, '/welcome')
    },
  },
  {
    name: 'the strict page really enforces Trusted Types in this engine: HTML from a string is refused',
    expectedMessages: [/TrustedHTML|Trusted ?Types|trusted-types/i],
    async run({ tab, demo }) {
      await tab.goto(fixture(demo, { csp: 'strict', sri: 1 }))
      await untilCode(tab)
      assert.deepEqual(await tab.evaluate(() => (window as any).__violations), [])
      const outcome = await tab.evaluate(() => {
        try {
          document.createElement('div').innerHTML = '<b>injected</b>'
          return 'assigned'
        } catch (error) {
          return (error as Error).name
        }
      })
      assert.equal(outcome, 'TypeError')
      await until('the violation reported', async () => ((await tab.evaluate(() => (window as any).__violations)) as unknown[]).length == 1)
      assert.deepEqual(
        (await tab.evaluate(() => (window as any).__violations)).map((v: { directive: string }) => v.directive),
        ['require-trusted-types-for'],
      )
    },
  },
  {
    name: 'German texts from the language pack, by data-service-locale and by <html lang>',
    async run({ tab, demo }) {
      for (const params of [{ locale: 'de' }, { lang: 'de-AT' }] as Record<string, string>[]) {
        await tab.goto(fixture(demo, params))
        const [widget] = await untilWidgets(tab, 'a code in German', ([widget]) => !!widget?.code && /^Läuft ab in \d\d:\d\d$/.test(widget.countdown ?? ''))
        assert.equal(widget!.status, 'Mit der App scannen')
        assert.equal(widget!.code!.alt, 'QR-Code: mit der App anmelden')
      }
    },
  },
  {
    name: 'Arabic from <html lang> and the Arabic pack alone: right to left, lang="ar", the countdown in Arabic-Indic digits',
    async run({ tab, demo }) {
      await tab.goto(fixture(demo, { lang: 'ar', packs: 'ar' }))
      const [widget] = await untilWidgets(
        tab,
        'a code in Arabic',
        ([widget]) => !!widget?.code && /^ينتهي خلال [٠-٩]{2}:[٠-٩]{2}$/.test(widget.countdown ?? ''),
      )
      assert.equal(widget!.status, 'امسح الرمز بالتطبيق')
      const root = await tab.evaluate(() => {
        const root = document.querySelector<HTMLElement>('.sa')!
        return [root.lang, root.dir, getComputedStyle(root).direction]
      })
      assert.deepEqual(root, ['ar', 'rtl', 'rtl'])
    },
  },
  {
    name: 'two widgets each show their own code; one signs in',
    async run({ tab, service, demo }) {
      await tab.goto(fixture(demo, { count: 2 }))
      const widgets = await untilWidgets(tab, 'two codes', (widgets) => widgets.length == 2 && widgets.every((widget) => widget.code && widget.status == SCAN))
      const ids = widgets.map((widget) => challengeOf(widget.code!))
      assert.notEqual(ids[0], ids[1])
      assert.deepEqual((await readyIds(tab)).sort(), [...ids].sort())
      await signAndLand(tab, service, ids[1]!)
    },
  },
  {
    name: 'a widget added late shows a code; once removed it asks nothing more',
    async run({ tab, service, demo }) {
      // Polls answer at once, so a widget left running would ask again every second.
      await service.configure({ holdMs: 0 })
      await tab.goto(fixture(demo, { late: 1 }))
      assert.deepEqual(await widgetsSeen(tab), [])
      assert.equal((await service.creations()).length, 0)
      await tab.click('Add widget')
      const removed = await untilCode(tab)
      await until('the late widget polled', async () => (await service.polls(removed.id)).length > 0)
      // The page keeps the element it removes, so that its widget can be seen to be destroyed (its
      // view gone) before anything else changes in the page: the widget hears of the removal by itself.
      await tab.evaluate(() => {
        ;(window as any).__removed = document.querySelector('#late-widgets [data-service-auth]')
      })
      await tab.click('Remove widget')
      await untilWidgets(tab, 'no widget', (widgets) => widgets.length == 0)
      await until('the removed widget destroyed', () => tab.evaluate(() => !(window as any).__removed.querySelector('.sa')))
      const pollsOfRemoved = (await service.polls(removed.id)).length
      // Another widget's polls are the clock: by its third, more than a second after the removal,
      // the removed one would have polled again had anything of it kept running.
      await tab.click('Add widget')
      const added = await untilCode(tab)
      await until('three polls of the new code', async () => (await service.polls(added.id)).length >= 3)
      assert.equal((await service.polls(removed.id)).length, pollsOfRemoved)
      assert.equal((await service.creations()).length, 2)
    },
  },
  {
    name: 'back after sign-in: the page comes back from the back/forward cache with a fresh code, and the signed one is not polled again',
    async run({ tab, service, demo }) {
      await tab.goto(fixture(demo))
      await tab.evaluate(() => addEventListener('pageshow', (event) => ((window as any).restored = event.persisted)))
      const consumed = await untilCode(tab)
      await signAndLand(tab, service, consumed.id)
      const pollsOfConsumed = (await service.polls(consumed.id)).length
      await tab.back()
      await until('the page restored from the back/forward cache', () =>
        tab.evaluate(() => location.pathname == '/fixture' && (window as any).restored === true),
      )
      const [widget] = await untilWidgets(tab, 'a fresh code', ([widget]) => !!widget?.code && widget.code.src != consumed.src && widget.status == SCAN)
      const fresh = challengeOf(widget!.code!)
      assert.deepEqual(await readyIds(tab), [consumed.id, fresh])
      await until('the fresh code polled', async () => (await service.polls(fresh)).length > 0)
      assert.equal((await service.polls(consumed.id)).length, pollsOfConsumed)
    },
  },
  {
    name: 'the React component under StrictMode makes one challenge per widget; one signs in, the removed one asks nothing more',
    async run({ tab, service, demo }) {
      await tab.goto(demo.appUrl + '/react')
      const widgets = await untilWidgets(tab, 'both codes', (widgets) => widgets.length == 2 && widgets.every((widget) => widget.code && widget.status == SCAN))
      assert.deepEqual(
        widgets.map((widget) => widget.host),
        ['first', 'second'],
      )
      const page = () => tab.evaluate(() => (window as any).__page as PageRecord)
      const isCreation = (request: { method: string; url: string }) => request.method == 'POST' && new URL(request.url).pathname == '/v1/entity/challenges'
      // One challenge per widget: in the page, at the service, and on screen.
      assert.equal((await page()).requests.filter(isCreation).length, 2)
      assert.equal((await service.creations()).length, 2)
      const { ready } = await page()
      assert.deepEqual(ready, { first: [challengeOf(widgets[0]!.code!)], second: [challengeOf(widgets[1]!.code!)] })

      await tab.click('Remove the second')
      await untilWidgets(tab, 'the first widget alone', (widgets) => widgets.length == 1 && widgets[0]!.host == 'first')
      await service.sign(ready.first[0]!, 'ada@example.com')
      await untilWidgets(tab, '"Signed in"', ([widget]) => widget?.status == 'Signed in')
      const next = await until('the app taking over', () =>
        tab.evaluate(() => Array.from(document.querySelectorAll('main > p'), (p) => p.textContent).join('')),
      )
      assert.match(next, /^The app takes over: next is .*\/welcome$/)
      const after = await page()
      const sinceRemoval = after.requests.filter((request) => request.at >= after.removedAt!)
      assert.ok(sinceRemoval.some((request) => request.url.includes('/auth/controller')))
      assert.deepEqual(
        sinceRemoval.filter((request) => request.url.includes(ready.second[0]!) || isCreation(request)),
        [],
      )
    },
  },
  {
    name: "a page's own global `scheduler` without postTask (DHTMLX's calendar has one) does not stop the widget",
    async run({ tab, service, demo }) {
      await tab.goto(demo.appUrl + '/own-scheduler')
      assert.deepEqual(await tab.evaluate(() => [typeof (window as any).scheduler.init, typeof (window as any).scheduler.postTask]), ['function', 'undefined'])
      const { id } = await untilCode(tab)
      await signAndLand(tab, service, id)
    },
  },
]
