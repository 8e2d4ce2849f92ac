// The one place that decides which Chromium the end-to-end tests drive. Playwright cannot
// download its own browsers on these machines, so Debian's chromium is used when no
// Playwright browser is installed; CHROMIUM_PATH overrides both.
import { existsSync } from 'node:fs'
import { chromium, type LaunchOptions } from '@playwright/test'

// Without the background-networking flags Chromium keeps dialling Google's hosts, which this
// closed network refuses; the rest keep a root, GPU-less, headless run quiet and reproducible.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]

const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome']

export function chromiumLaunchOptions(): LaunchOptions {
  const override = process.env.CHROMIUM_PATH
  if (override) {
    if (!existsSync(override)) throw new Error(`CHROMIUM_PATH is set to ${override}, but there is no file there.`)
    return { executablePath: override, args: ARGS }
  }
  let bundled: string | undefined
  try {
    bundled = chromium.executablePath()
  } catch {
    // Playwright throws when it has no browser of its own; fall through to the system one.
  }
  if (bundled && existsSync(bundled)) return { args: ARGS }
  const system = SYSTEM_CHROMIUM.find((path) => existsSync(path))
  if (system) return { executablePath: system, args: ARGS }
  throw new Error(
    'No Chromium to run the end-to-end tests. Install one: `apt-get install -y chromium` on Debian ' +
      '(or `npx playwright install chromium` where downloads work), or point CHROMIUM_PATH at a Chromium binary.',
  )
}
