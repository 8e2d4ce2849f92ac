// A restart of the demo (`npm start` on its data directory) while a login page is open: the page
// rides out the outage by itself, and the phone set up before the restart signs it in after.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test, expect } from '@playwright/test'
import { APP_COLLECTIONS, startDemo, type Demo } from 'service-auth-demo'
import { openDataStore, type Store } from '@service-auth/mock/service'
import { readyIds, Service, shownChallenge, widget } from './fixtures.js'

const port = (url: string) => Number(new URL(url).port)

test('an open login page carries on across a restart, and the phone set up before it signs in after it', async ({ page }) => {
  const work = await mkdtemp(join(tmpdir(), 'service-auth-e2e-restart-'))
  let running: { demo: Demo; store: Store } | undefined
  const start = async (ports?: { appPort: number; servicePort: number }) => {
    const store = await openDataStore(join(work, 'data'), { collections: APP_COLLECTIONS })
    running = { demo: await startDemo({ ...ports, store }), store }
    return running.demo
  }
  const stop = async () => {
    await running?.demo.close()
    await running?.store.close()
    running = undefined
  }
  try {
    const before = await start()
    const deviceId = await new Service(before).provisionPhone('ada@example.com')
    await page.goto(before.appUrl + '/login')
    const shown = await shownChallenge(page)

    await stop()
    // The page's next poll finds nobody: it says it is reconnecting, and keeps trying.
    await expect(widget(page).locator('[data-state]')).toHaveAttribute('data-state', 'reconnecting')
    const after = await start({ appPort: port(before.appUrl), servicePort: port(before.serviceUrl) })
    expect(after.apiKey).toBe(before.apiKey)
    await expect(widget(page).locator('[data-state]')).toHaveAttribute('data-state', 'ready')
    // The code on screen is the one from before the restart: it was kept, and the page polls it still.
    expect(await readyIds(page)).toEqual([shown])

    const signed = await fetch(`${after.serviceUrl}/__knobs/challenges/${shown}/sign`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ identifier: 'ada@example.com', deviceId }),
    })
    expect(signed.status).toBe(200)
    await expect(page).toHaveURL(`${after.appUrl}/welcome`)
    await expect(page.getByRole('heading')).toHaveText('Welcome, ada@example.com')
  } finally {
    await stop()
    await rm(work, { recursive: true, force: true })
  }
})
