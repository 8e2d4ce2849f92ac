// WebKit through WebKitWebDriver (Debian's webkit2gtk-driver), classic WebDriver, driving
// WebKitGTK's MiniBrowser on an Xvfb display of the suite's own. Classic WebDriver has no console
// log: the pages' own record stands in (see Tab.logged).
import { spawn, type ChildProcess } from 'node:child_process'
import { until } from '../../until.js'
import { callExpression, type Engine, type Tab } from '../driver.js'
import { WebDriverSession } from './webdriver-client.js'
import { startXvfb, stop, type Display } from './xvfb.js'
import { freePort } from '../../processes.js'

export async function launchWebKit(): Promise<Engine> {
  const display = await startXvfb()
  let driver: ChildProcess | undefined
  try {
    const port = await freePort()
    // LANG, or WebKit takes its languages from the C locale and says `C`, not en-US.
    driver = spawn(process.env.WEBKIT_WEBDRIVER_PATH || 'WebKitWebDriver', [`--port=${port}`], {
      env: { ...process.env, DISPLAY: display.name, LANG: 'en_US.UTF-8' },
      stdio: 'ignore',
    })
    const exited = new Promise<never>((_, reject) => {
      driver!.once('error', (error) =>
        reject(new Error(`WebKitWebDriver could not start (${error.message}): \`apt-get install -y --no-install-recommends webkit2gtk-driver\` on Debian.`)),
      )
      driver!.once('exit', (code) => reject(new Error(`WebKitWebDriver exited (${code}).`)))
    })
    const base = `http://127.0.0.1:${port}`
    await Promise.race([
      exited,
      until('WebKitWebDriver to listen', async () => ((await (await fetch(base + '/status')).json()) as { value: { ready: boolean } }).value.ready),
    ])
    const session = await WebDriverSession.start(base, {})
    return engine(session, display, driver)
  } catch (error) {
    if (driver) await stop(driver)
    await display.close()
    throw error
  }
}

function engine(session: WebDriverSession, display: Display, driver: ChildProcess): Engine {
  return {
    name: 'webkit',
    version: `WebKitGTK ${session.capabilities.browserVersion} (${session.capabilities.browserName})`,
    // The window that is open between scenarios is blank: the last tab's close left it so.
    newTab: async () => tab(session),
    async close() {
      await session.end().catch(() => {})
      await stop(driver)
      await display.close()
    },
  }
}

function tab(session: WebDriverSession): Tab {
  return {
    goto: (url) => session.navigate(url),
    evaluate: (fn, ...args) => session.execute('return ' + callExpression(fn, args)),
    click: async (name) => session.clickElement(await session.findElement(`//button[normalize-space(.)=${JSON.stringify(name)}]`)),
    back: () => session.back(),
    logged: () => [],
    // A blank tab opens first, as a session ends with its last window, and this one closes
    // rather than staying behind it: MiniBrowser keeps every tab but the one in front hidden
    // (document.visibilityState), even the one WebDriver switched to, and a hidden page's widget
    // does not poll, by design. The next scenario's page then shows, in a visible tab.
    async close() {
      const blank = await session.newWindow()
      await session.closeWindow()
      await session.switchToWindow(blank)
    },
  }
}
