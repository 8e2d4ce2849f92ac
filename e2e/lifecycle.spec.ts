// One test per lifecycle rule: expiry, outages, permanent refusals, single-page apps, the
// back/forward cache and hidden tabs. Time-dependent rules use Playwright's clock, never sleeps.
import type { Page } from '@playwright/test'
import { eventTypes, expect, fixture, readyIds, requestStarts, shownChallenge, test, widget } from './fixtures.js'

const errorsOf = async (page: Page) =>
  (await page.evaluate(() => (window as any).__events)).filter((e: any) => e.type === 'service-auth:error').map((e: any) => e.detail)

test('a 410 shows a new code at once, without a reload', async ({ page, service }) => {
  await page.goto(fixture())
  await page.evaluate(() => ((window as any).sameDocument = true))
  const first = await shownChallenge(page)
  await service.expireChallenge(first)
  await expect.poll(() => readyIds(page)).toHaveLength(2)
  expect(await eventTypes(page)).toEqual(['ready', 'expired', 'ready'])
  expect(await page.evaluate(() => (window as any).sameDocument)).toBe(true)
  await expect(widget(page).getByRole('status')).toHaveText('Scan with the app')
})

test('reaching expiresAt shows a new code, even while a poll is held', async ({ page, service }) => {
  // The first code lives 2.5 s, on the service's own clock, while its polls are held for a minute.
  // Both creations wait for the test, so the second code is surely made to last: the test never
  // races the first one's expiry, however slowly it runs.
  await service.configure({ challengeTtlMs: 2500, holdMs: 60_000 })
  await service.hold({ match: 'create', count: 2 })
  await page.goto(fixture())
  await service.untilHeld('create')
  await service.release()
  const first = await shownChallenge(page)
  await service.configure({ challengeTtlMs: 120_000 })
  await service.untilHeld('create')
  await service.release()
  await expect.poll(() => readyIds(page)).toHaveLength(2)
  expect((await readyIds(page))[0]).toBe(first)
  expect(await eventTypes(page)).toEqual(['ready', 'expired', 'ready'])
})

test('after about 5 minutes of unattended refreshing it stops and offers a new code', async ({ page, service }) => {
  await page.clock.install()
  await page.goto(fixture())
  await service.expireChallenge(await shownChallenge(page))
  await expect.poll(() => readyIds(page)).toHaveLength(2)
  await page.clock.fastForward('05:01')
  await service.expireChallenge((await readyIds(page))[1])

  const button = widget(page).getByRole('button', { name: 'Show a new code' })
  await expect(button).toBeVisible()
  await expect(widget(page).getByRole('status')).toHaveText('Code expired')
  await expect(widget(page).getByRole('img')).toBeHidden()
  const created = (await service.creations()).length
  await page.clock.fastForward('10:00')
  expect(await service.creations()).toHaveLength(created)

  await button.focus()
  await page.keyboard.press('Enter')
  await expect.poll(() => readyIds(page)).toHaveLength(3)
  await expect(widget(page).getByRole('img')).toBeVisible()
})

test('a 404 on the status starts a new challenge', async ({ page, service }) => {
  await service.fail({ status: 404, match: 'status' })
  await page.goto(fixture())
  await expect.poll(() => readyIds(page)).toHaveLength(2)
  await expect(widget(page).getByRole('status')).toHaveText('Scan with the app')
  expect(await eventTypes(page)).toEqual(['ready', 'ready'])
})

for (const [what, rule] of [
  ['a network error', { status: 502, network: true }],
  ['a 503', { status: 503 }],
] as const) {
  test(`${what} while polling shows "Reconnecting…" with the code still shown, then recovers`, async ({ page, service }) => {
    await page.goto(fixture())
    const id = await shownChallenge(page)
    // The next two polls wait for the test, and both fail once let go: while the second one
    // waits, the widget is surely reconnecting, for as long as the test looks.
    await service.hold({ match: 'status', count: 2 })
    await service.untilHeld('status')
    await service.fail({ ...rule, count: 2, match: 'status' })
    await service.release()
    await service.untilHeld('status')
    await expect(widget(page).getByRole('status')).toHaveText('Reconnecting…')
    await expect(widget(page).getByRole('img')).toBeVisible()
    await service.release()
    await expect(widget(page).getByRole('status')).toHaveText('Scan with the app', { timeout: 15_000 })
    const reason = 'network' in rule ? 'network' : 'service'
    expect(await errorsOf(page)).toEqual([expect.objectContaining({ reason }), expect.objectContaining({ reason })])
    await service.sign(id)
    await expect(page).toHaveURL(/\/welcome$/)
  })
}

/**
 * Stops the page's clock, so that it moves only when the test moves it: each wait is measured
 * exactly, however slowly the machine runs. Returns the page's challenge requests so far, counted
 * as the widget makes them (a retry makes its request as its wait ends, within the clock's step;
 * what it shows meanwhile stays as it was until the answer, so the view cannot tell).
 */
async function stillClockAndCreations(page: Page): Promise<() => Promise<number>> {
  await page.clock.install({ time: new Date('2026-11-21T09:59:00Z') })
  await page.clock.pauseAt(new Date('2026-11-21T10:00:00Z'))
  await page.addInitScript(() => {
    const fetch = window.fetch
    ;(window as any).__creations = 0
    window.fetch = (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/v1/entity/challenges')) (window as any).__creations++
      return fetch(input, init)
    }
  })
  return () => page.evaluate(() => (window as any).__creations)
}

test('backs off exponentially between failed attempts', async ({ page, service }) => {
  const creations = await stillClockAndCreations(page)
  await service.fail({ status: 500, count: 3, match: 'create' })
  await page.goto(fixture())
  const status = widget(page).getByRole('status')
  // About 1 s, 2 s, 4 s: each with up to 30 % jitter below, never above the step.
  for (const [attempt, step] of [1000, 2000, 4000].entries()) {
    await expect.poll(async () => (await errorsOf(page)).length).toBe(attempt + 1)
    await expect(status).toHaveText('Reconnecting…')
    await page.clock.runFor(step * 0.7 - 1)
    expect(await creations(), `no retry before ${step * 0.7} ms`).toBe(attempt + 1)
    await page.clock.runFor(step * 0.3 + 1)
    expect(await creations(), `a retry by ${step} ms`).toBe(attempt + 2)
  }
  await shownChallenge(page)
  expect(await service.creations()).toHaveLength(4)
})

test('a 429 is retried no sooner than its Retry-After', async ({ page, service }) => {
  const creations = await stillClockAndCreations(page)
  await service.fail({ status: 429, match: 'create', retryAfter: '3' })
  await page.goto(fixture())
  await expect(widget(page).getByRole('status')).toHaveText('Reconnecting…')
  expect((await errorsOf(page))[0]).toMatchObject({ reason: 'service', status: 429, retryAfter: 3000 })
  // Longer than any backoff of a first failure (1 s at most): only Retry-After holds it back.
  await page.clock.runFor(2999)
  expect(await creations(), 'no retry before 3 s').toBe(1)
  await page.clock.runFor(1)
  await shownChallenge(page)
  expect(await service.creations()).toHaveLength(2)
})

for (const status of [400, 401, 403]) {
  test(`a ${status} on challenge creation is permanent: an error with a button, no retry by itself`, async ({ page, service }) => {
    await page.clock.install()
    await service.fail({ status, match: 'create' })
    await page.goto(fixture())
    const button = widget(page).getByRole('button', { name: 'Try again' })
    await expect(button).toBeVisible()
    await expect(widget(page).getByRole('status')).toHaveText('Sign-in is unavailable')
    expect(await errorsOf(page)).toEqual([expect.objectContaining({ reason: 'rejected', status })])
    await page.clock.fastForward('10:00')
    expect(await service.creations()).toHaveLength(1)

    await button.click()
    await expect(widget(page).getByRole('img')).toBeVisible()
    expect(await service.creations()).toHaveLength(2)
  })
}

test('widgets added later are mounted, and a removed one stops every request and timer', async ({ page, service }) => {
  // Polls are held for a minute, so one is surely in flight when the widget goes.
  await service.configure({ holdMs: 60_000 })
  await page.goto(fixture({ late: 1 }))
  expect(await service.creations()).toHaveLength(0)
  await page.getByRole('button', { name: 'Add widget' }).click()
  const id = await shownChallenge(page)
  await expect(widget(page).getByRole('img')).toBeVisible()
  await expect.poll(async () => (await service.polls(id)).length).toBe(1)

  await page.clock.install()
  const aborted = page.waitForEvent('requestfailed', (request) => new URL(request.url()).pathname.endsWith('/status'))
  await page.getByRole('button', { name: 'Remove widget' }).click()
  await expect(widget(page)).toHaveCount(0)
  expect((await aborted).failure()?.errorText).toBe('net::ERR_ABORTED')
  // No timer starts another poll, however long the page stays.
  await page.clock.runFor(10 * 60_000)
  expect(await service.polls(id)).toHaveLength(1)
  expect(await page.evaluate(() => (window as any).__events.length)).toBe(1)
})

test('a widget removed while hidden, with no box to lose, stops every request at once', async ({ page, service }) => {
  await service.configure({ holdMs: 60_000 })
  await page.goto(fixture({ late: 1 }))
  // Alone in its parent, so that the removal leaves no element beside it: only the widget's own
  // watch can tell, and its element had no box to lose.
  await page.evaluate(() => {
    const hidden = document.body.appendChild(document.createElement('div')).appendChild(document.createElement('section'))
    hidden.hidden = true
    hidden.append((document.getElementById('late-widget') as HTMLTemplateElement).content.cloneNode(true))
  })
  await expect.poll(async () => (await service.polls()).length).toBe(1)
  // Well within the poll's own time limit (30 s), which would end it too.
  const aborted = page.waitForEvent('requestfailed', { predicate: (request) => new URL(request.url()).pathname.endsWith('/status'), timeout: 10_000 })
  await page.evaluate(() => document.querySelector('section[hidden]')!.remove())
  expect((await aborted).failure()?.errorText).toBe('net::ERR_ABORTED')
})

test('including the script twice, or mounting twice, does nothing extra', async ({ page, service }) => {
  await page.goto(fixture({ script: 'twice' }))
  await shownChallenge(page)
  const same = await page.evaluate(() => {
    const el = document.querySelector<HTMLElement>('[data-service-auth]')!
    const api = (window as any).ServiceAuth
    return api.mount(el) === api.get(el) && api.scan().length === 1 && el.querySelectorAll('img').length === 1
  })
  expect(same).toBe(true)
  expect(await service.creations()).toHaveLength(1)
})

test('while the tab is hidden polling pauses; it resumes at once when visible', async ({ page, service }) => {
  await page.goto(fixture())
  const id = await shownChallenge(page)
  await expect.poll(async () => (await service.polls(id)).length).toBeGreaterThan(0)
  const setHidden = (hidden: boolean) =>
    page.evaluate((hidden) => {
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden })
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') })
      document.dispatchEvent(new Event('visibilitychange'))
    }, hidden)
  await setHidden(true)
  // The poll held when the tab went away still finishes: wait until every poll the service saw
  // has completed in the browser (Resource Timing lists a request once it is done).
  await expect.poll(async () => (await requestStarts(page, '/status')).length === (await service.polls(id)).length).toBe(true)
  await page.clock.install()
  const pollsWhileHidden = (await service.polls(id)).length
  await page.clock.runFor(60_000)
  expect(await service.polls(id)).toHaveLength(pollsWhileHidden)
  // Signed while away: the person comes back and is signed in at once.
  await service.sign(id)
  await setHidden(false)
  await expect(page).toHaveURL(/\/welcome$/)
})
