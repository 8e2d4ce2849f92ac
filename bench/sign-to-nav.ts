// Measure 3: from the mock service marking the challenge signed to the browser starting the
// navigation that follows, for the widget and for the naive 800 ms poller, shuffled into one run.
//
// Both ends are stamped in this process, on one clock (see probe.ts):
// - signed: the moment the service has written its answer to the sign knob. It marks the
//   challenge signed and wakes the held polls in the same tick, just before that answer.
// - navigation start: the moment the landing page's request reaches the demo app, minus how
//   long the browser took from starting that navigation to sending the request (the landing
//   page's own Navigation Timing requestStart). That is a duration on the browser's clock, so no
//   offset between the two processes' clocks enters the figure.
// The signing lands at a random point of a poll: a uniformly random delay after the poll
// reaches the service, up to the hold (1 s) for the widget and up to the interval (800 ms) for
// the baseline, whose polls are not held.
import type { Browser, Page } from '@playwright/test'
import type { Floor } from './floor.js'
import type { Service } from '../e2e/service.js'
import { BASELINE_PATH, LANDING_PATH, WIDGET_PATH } from './pages.js'
import { portOf, type Probe, type Seen } from './probe.js'
import { shuffled } from './stats.js'

/** Who signs in: a user of the app, with a phone provisioned before any timing starts. */
const BENCH_IDENTITY = 'bench@example.com'

export type Contender = 'widget' | 'baseline'

export interface SignRun {
  who: Contender
  /** Signed to navigation start, ms: the figure. */
  toNavigation: number
  /** Signed to the landing request reaching the app, ms (navigation start plus the browser's lead). */
  toLandingRequest: number
  /** Signed to the controller call reaching the app, ms: how long the page took to learn of it and react. */
  toController: number
  /** The controller's own time (it verifies the token and confirms the challenge at the service), ms. */
  controller: number
  /** The page's own work, on the browser's clock: from the poll's answer to calling the controller, ms... */
  pageToCall: number
  /** ...and from the controller's answer to starting the navigation, ms. */
  pageToNavigate: number
  /** Where in the poll the signing landed, ms after the poll reached the service. */
  signedAfterPoll: number
}

export interface SignResult {
  runs: SignRun[]
  holdMs: number
  intervalMs: number
}

export const BASELINE_INTERVAL_MS = 800

interface Options {
  appUrl: string
  serviceUrl: string
  knobs: Service
  probe: Probe
  floor: Floor
  runs: number
  holdMs: number
}

export async function measureSignToNavigation(browser: Browser, options: Options): Promise<SignResult> {
  const { knobs, floor, runs } = options
  // Provisioned before any timing: the first sign must not pay for enrolling the phone.
  await knobs.provisionPhone(BENCH_IDENTITY)
  const result: SignResult = { runs: [], holdMs: options.holdMs, intervalMs: BASELINE_INTERVAL_MS }
  for (const who of shuffled([...Array<Contender>(runs).fill('widget'), ...Array<Contender>(runs).fill('baseline')])) {
    const context = await browser.newContext()
    try {
      const page = await context.newPage()
      result.runs.push(await oneSignIn(page, who, options))
      await floor.sample()
    } finally {
      await context.close()
    }
  }
  return result
}

async function oneSignIn(page: Page, who: Contender, { appUrl, serviceUrl, knobs, probe, holdMs }: Options): Promise<SignRun> {
  const servicePort = portOf(serviceUrl)
  const appPort = portOf(appUrl)
  const pollPath = who === 'widget' ? '/status' : '/token'
  const isPoll = (seen: Seen) => seen.port === servicePort && seen.method === 'GET' && seen.url.split('?')[0]!.endsWith(pollPath)

  // This page's first poll: the only page polling now is this one (the floor is sampled between runs).
  const firstPoll = probe.nextRequest(isPoll, 15_000)
  await page.goto(appUrl + (who === 'widget' ? WIDGET_PATH : BASELINE_PATH))
  await page.waitForFunction(() => (window as any).__bench.ready > 0, null, { polling: 20, timeout: 15_000 })
  const challengeId = await page.evaluate(() => (window as any).__bench.lastId as string)
  const poll = await firstPoll
  if (!poll.url.includes(challengeId)) throw new Error(`A poll of another challenge arrived: ${poll.url}`)
  // Then a random point of that poll.
  const signedAfterPoll = Math.random() * (who === 'widget' ? holdMs : BASELINE_INTERVAL_MS)
  await sleepUntil(poll.at + signedAfterPoll)

  const signed = probe.nextResponse((seen) => seen.port === servicePort && seen.url.endsWith(`${challengeId}/sign`))
  const controllerIn = probe.nextRequest((seen) => seen.port === appPort && seen.url.startsWith('/auth/controller'))
  const controllerOut = probe.nextResponse((seen) => seen.port === appPort && seen.url.startsWith('/auth/controller'))
  const landed = probe.nextRequest((seen) => seen.port === appPort && seen.method === 'GET' && seen.url === LANDING_PATH)
  await knobs.sign(challengeId, BENCH_IDENTITY)
  const [signedAt, controllerAt, controllerDone, landedAt] = await Promise.all([signed, controllerIn, controllerOut, landed])
  await page.waitForURL(`**${LANDING_PATH}`)
  // Durations on the browser's clock: from it starting the navigation to sending the request,
  // and (from the timings the signed-in page left, see pages.ts) the page's own reactions.
  const browserSide = await page.evaluate((pollPath) => {
    const left = JSON.parse(sessionStorage.getItem('bench:left')!) as {
      timeOrigin: number
      requests: { name: string; startTime: number; responseEnd: number }[]
    }
    const poll = left.requests.filter((r) => new URL(r.name).pathname.endsWith(pollPath)).at(-1)!
    const controller = left.requests.find((r) => new URL(r.name).pathname === '/auth/controller')!
    return {
      lead: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).requestStart,
      pageToCall: controller.startTime - poll.responseEnd,
      pageToNavigate: performance.timeOrigin - left.timeOrigin - controller.responseEnd,
    }
  }, pollPath)
  const { lead } = browserSide
  return {
    who,
    toNavigation: landedAt.at - lead - signedAt.at,
    toLandingRequest: landedAt.at - signedAt.at,
    toController: controllerAt.at - signedAt.at,
    controller: controllerDone.at - controllerAt.at,
    pageToCall: browserSide.pageToCall,
    pageToNavigate: browserSide.pageToNavigate,
    signedAfterPoll,
  }
}

function sleepUntil(at: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())))
}
