// Chromium through Playwright's library (not its test runner), launched as the Playwright specs
// launch it (e2e/chromium.ts), with the back/forward cache on: Playwright turns it off by default.
import { chromium, type BrowserContext, type Page } from '@playwright/test'
import { chromiumLaunchOptions } from '../../chromium.js'
import { callExpression, type Engine, type Tab } from '../driver.js'

export async function launchChromium(): Promise<Engine> {
  const browser = await chromium.launch({ ...chromiumLaunchOptions(), ignoreDefaultArgs: ['--disable-back-forward-cache'] })
  return {
    name: 'chromium',
    version: `Chromium ${browser.version()}`,
    async newTab() {
      const context = await browser.newContext()
      return tab(context, await context.newPage())
    },
    close: () => browser.close(),
  }
}

function tab(context: BrowserContext, page: Page): Tab {
  const logged: string[] = []
  page.on('console', (message) => message.type() == 'error' && logged.push(`console.error: ${message.text()}`))
  page.on('pageerror', (error) => logged.push(`uncaught: ${error.message}`))
  return {
    goto: async (url) => void (await page.goto(url)),
    evaluate: (fn, ...args) => page.evaluate(callExpression(fn, args)),
    click: (name) => page.getByRole('button', { name, exact: true }).click(),
    // A restore from the cache fires pageshow, not load: wait only for the navigation to commit.
    back: async () => void (await page.goBack({ waitUntil: 'commit' })),
    logged: () => logged,
    close: () => context.close(),
  }
}
