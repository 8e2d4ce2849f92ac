// One Chromium for the whole bench, found the way the e2e tests find it (e2e/chromium.ts), with
// a second, plain CDP connection for pages that must be able to go hidden.
//
// Why two: Playwright turns on focus emulation for every page it manages, which keeps the page
// "visible" whatever happens to its tab or window, so document.hidden never becomes true. A
// connection made with connectOverCDP({noDefaults: true}) leaves the browser's default context
// alone; a page opened there really goes hidden when its window is minimized (the bench checks
// document.hidden before it counts anything).
import { chromium, type Browser, type Page } from '@playwright/test'
import { chromiumLaunchOptions } from '../e2e/chromium.js'
import { freePort } from '../e2e/processes.js'

export interface BenchBrowser {
  browser: Browser
  /**
   * A page in a window of its own, so that it stays visible until minimized, in the browser's
   * default context over the plain connection, so that minimizing really hides it.
   */
  openWindow(): Promise<Page>
  version: string
  close(): Promise<void>
}

export async function launchBrowser(): Promise<BenchBrowser> {
  const options = chromiumLaunchOptions()
  const port = await freePort()
  const browser = await chromium.launch({
    ...options,
    args: [...(options.args ?? []), `--remote-debugging-port=${port}`, '--remote-debugging-address=127.0.0.1'],
    // Playwright keeps background tabs at full speed; a person's Chromium throttles their timers.
    // The bench wants the latter, so that a hidden naive poller is measured as it would really run.
    ignoreDefaultArgs: ['--disable-background-timer-throttling', '--disable-renderer-backgrounding', '--disable-backgrounding-occluded-windows'],
  })
  try {
    const plain = await chromium.connectOverCDP(`http://127.0.0.1:${port}`, { noDefaults: true })
    const plainContext = plain.contexts()[0]!
    const cdp = await plain.newBrowserCDPSession()
    return {
      browser,
      // Tabs of one window would hide each other; a window each keeps every page visible.
      async openWindow() {
        const opened = plainContext.waitForEvent('page')
        await cdp.send('Target.createTarget', { url: 'about:blank', newWindow: true })
        return opened
      },
      version: browser.version(),
      async close() {
        await plain.close().catch(() => {})
        await browser.close()
      },
    }
  } catch (error) {
    await browser.close()
    throw error
  }
}

/** Minimizes or restores the page's window: the page goes hidden or visible for real. */
export async function setMinimized(page: Page, minimized: boolean): Promise<void> {
  const cdp = await page.context().newCDPSession(page)
  try {
    const { windowId } = await cdp.send('Browser.getWindowForTarget')
    await cdp.send('Browser.setWindowBounds', { windowId, bounds: { windowState: minimized ? 'minimized' : 'normal' } })
  } finally {
    await cdp.detach()
  }
}
