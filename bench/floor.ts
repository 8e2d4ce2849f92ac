// The physical floor: how long one empty request to the mock service takes from a page, sampled
// between the runs of whatever is compared with it, so both see the machine in the same mood.
// The request is a challenge's authTokenUrl while it is pending, which the service answers at
// once with an empty 204 and the CORS headers, on a fresh connection as every service answer
// is: the cheapest exchange the embed could make. It is sent from a page of its own that stays
// open and idle, on the app's origin: a page just loaded in a new renderer is still warming up,
// and its first requests are slower than the network is.
import type { Browser, BrowserContext, Page } from '@playwright/test'
import type { Demo } from 'service-auth-demo'
import type { Service } from '../e2e/service.js'
import { LANDING_PATH } from './pages.js'

export class Floor {
  readonly samples: number[] = []
  #url: string | undefined
  #createdAt = 0

  private constructor(
    private readonly knobs: Service,
    private readonly context: BrowserContext,
    private readonly page: Page,
  ) {}

  static async open(browser: Browser, appUrl: string, knobs: Service): Promise<Floor> {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(appUrl + LANDING_PATH)
    const floor = new Floor(knobs, context, page)
    // Warm-up, not kept.
    await floor.#measure(5)
    return floor
  }

  /** Takes `count` round trips and keeps them. */
  async sample(count = 3): Promise<void> {
    this.samples.push(...(await this.#measure(count)))
  }

  close(): Promise<void> {
    return this.context.close()
  }

  async #measure(count: number): Promise<number[]> {
    const url = await this.#tokenUrl()
    return this.page.evaluate(
      async ({ url, count }) => {
        const out: number[] = []
        for (let i = 0; i < count; i++) {
          const start = performance.now()
          const res = await fetch(url, { cache: 'no-store' })
          await res.arrayBuffer()
          if (res.status !== 204) throw new Error(`the floor's request answered ${res.status}`)
          out.push(performance.now() - start)
        }
        return out
      },
      { url, count },
    )
  }

  // A challenge lives two minutes and then answers 410 with a body: renew it well before.
  async #tokenUrl(): Promise<string> {
    if (!this.#url || Date.now() - this.#createdAt > 60_000) {
      this.#url = (await createChallenge(this.knobs.demo)).authTokenUrl
      this.#createdAt = Date.now()
    }
    return this.#url
  }
}

/** A challenge created from Node (no Origin header, which the service accepts), for its URLs. */
async function createChallenge({ serviceUrl, apiKey }: Demo): Promise<{ id: string; authTokenUrl: string }> {
  const res = await fetch(`${serviceUrl}/v1/entity/challenges`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ key: apiKey }),
  })
  if (res.status !== 201) throw new Error(`creating a challenge answered ${res.status}: ${await res.text()}`)
  return (await res.json()) as { id: string; authTokenUrl: string }
}
