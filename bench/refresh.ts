// Measure 7: refreshing a code (issue 14, goals 1 and 3). One widget page in a fresh context shows
// its first code; then, again and again, the bench waits for the widget's next status poll to reach
// the service and expires the code at once (the expire knob), so the held poll hears 410 and the
// widget creates and shows a new code. The service counts what arrives (probe.ts):
//
// - CORS preflights (OPTIONS) per refresh: the first challenge of a page needs one; a refresh whose
//   preflight the browser took from its cache needs none, and is the POST alone.
// - The refreshed code's first poll: from the service writing out the new challenge to that code's
//   first status request arriving. The old code's poll started a moment before the expiry, so a
//   first poll held back by the old code's once-a-second floor would wait most of a second.
//
// Refreshes are spaced a few seconds apart: the widget replaces codes at most twice a second,
// and the bench wants every refresh to be an ordinary one.
import type { Browser } from '@playwright/test'
import type { Service } from '../e2e/service.js'
import { WIDGET_PATH } from './pages.js'
import { portOf, type Probe } from './probe.js'

export interface RefreshResult {
  refreshes: number
  /** CORS preflights the service received for the first challenge of the page. */
  firstOptions: number
  /** CORS preflights it received for all the refreshes together. */
  refreshOptions: number
  /** Challenge creations (POST) it received for the refreshes: one each is expected. */
  refreshPosts: number
  /** Per refresh: the new challenge written out → that code's first status request arrived, ms. */
  firstPollDelay: number[]
}

interface Options {
  appUrl: string
  serviceUrl: string
  knobs: Service
  probe: Probe
  refreshes: number
}

const SPACING_MS = 1500

export async function measureRefresh(browser: Browser, { appUrl, serviceUrl, knobs, probe, refreshes }: Options): Promise<RefreshResult> {
  const port = portOf(serviceUrl)
  const isOptions = ({ port: p, method }: { port: number; method: string }) => p === port && method === 'OPTIONS'
  const isCreation = ({ port: p, method, url }: { port: number; method: string; url: string }) =>
    p === port && method === 'POST' && url === '/v1/entity/challenges'
  const isPollOf =
    (id: string) =>
    ({ port: p, method, url }: { port: number; method: string; url: string }) =>
      p === port && method === 'GET' && url.split('?')[0] === `/v1/entity/challenges/${encodeURIComponent(id)}/status`
  const isPollOfAnotherThan =
    (id: string) =>
    ({ port: p, method, url }: { port: number; method: string; url: string }) =>
      p === port && method === 'GET' && /^\/v1\/entity\/challenges\/[^/]+\/status(\?|$)/.test(url) && !url.includes(`/${encodeURIComponent(id)}/`)

  const context = await browser.newContext()
  try {
    const page = await context.newPage()
    const firstOptions = probe.count(isOptions)
    await page.goto(`${appUrl}${WIDGET_PATH}`)
    await page.waitForFunction(() => (window as any).__bench.ready > 0, null, { polling: 50, timeout: 15_000 })
    const result: RefreshResult = { refreshes, firstOptions: firstOptions.stop(), refreshOptions: 0, refreshPosts: 0, firstPollDelay: [] }
    const options = probe.count(isOptions)
    const posts = probe.count(isCreation)
    for (let i = 0; i < refreshes; i++) {
      await new Promise((resolve) => setTimeout(resolve, SPACING_MS))
      const id = await page.evaluate(() => (window as any).__bench.lastId as string)
      const readyBefore = await page.evaluate(() => (window as any).__bench.ready as number)
      await probe.nextRequest(isPollOf(id), 5_000)
      const created = probe.nextResponse(isCreation, 10_000)
      const firstPoll = probe.nextRequest(isPollOfAnotherThan(id), 10_000)
      await knobs.expireChallenge(id)
      result.firstPollDelay.push((await firstPoll).at - (await created).at)
      await page.waitForFunction((before) => (window as any).__bench.ready > before, readyBefore, { polling: 50, timeout: 10_000 })
    }
    result.refreshOptions = options.stop()
    result.refreshPosts = posts.stop()
    return result
  } finally {
    await context.close()
  }
}
