// Firefox through puppeteer-core over WebDriver BiDi, with Debian's firefox-esr (FIREFOX_PATH
// overrides it): no geckodriver, and nothing downloaded. puppeteer-core is pinned to 24, the last
// major that runs on Node 20.
import { existsSync } from 'node:fs'
import puppeteer, { type BrowserContext, type Page } from 'puppeteer-core'
import { callExpression, type Engine, type Tab } from '../driver.js'

const SYSTEM_FIREFOX = ['/usr/bin/firefox-esr', '/usr/bin/firefox']

export function firefoxPath(): string {
  const path = process.env.FIREFOX_PATH || SYSTEM_FIREFOX.find((candidate) => existsSync(candidate))
  if (!path || !existsSync(path)) throw new Error('No Firefox for the engines suite: `apt-get install -y firefox-esr` on Debian, or point FIREFOX_PATH at one.')
  return path
}

export async function launchFirefox(): Promise<Engine> {
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: firefoxPath(), headless: true })
  return {
    name: 'firefox',
    version: (await browser.version()).replace('firefox/', 'Firefox '),
    async newTab() {
      const context = await browser.createBrowserContext()
      return tab(context, await context.newPage())
    },
    close: () => browser.close(),
  }
}

function tab(context: BrowserContext, page: Page): Tab {
  const logged: string[] = []
  page.on('console', (message) => message.type() == 'error' && logged.push(`console.error: ${message.text()}`))
  page.on('pageerror', (error) => logged.push(`uncaught: ${error instanceof Error ? error.message : String(error)}`))
  return {
    goto: async (url) => void (await page.goto(url)),
    evaluate: (fn, ...args) => page.evaluate(callExpression(fn, args)) as never,
    click: (name) => page.locator(`::-p-xpath(//button[normalize-space(.)=${JSON.stringify(name)}])`).click(),
    // Not page.goBack(): it waits for a load that a restore from the back/forward cache never
    // fires. After such a restore puppeteer's idea of the page's URL is stale and its next goto()
    // hangs, so a scenario goes back last, and the next one has a new tab.
    back: async () => void (await page.evaluate(() => setTimeout(() => history.back()))),
    logged: () => logged,
    close: () => context.close(),
  }
}
