import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from './e2e/chromium.js'

export default defineConfig({
  testDir: 'e2e',
  // Suites of their own: e2e/shared-mock/ has its own config, with its one shared mock
  // (`playwright test -c e2e/shared-mock`); e2e/engines/ runs under vitest (`npm run test:engines`).
  testIgnore: ['shared-mock/**', 'engines/**'],
  // Each worker starts its own mock service and demo app on ephemeral ports (see e2e/fixtures.ts).
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Bounds that end a hang, not a pace: every test waits on state (web-first assertions, the mock's
  // knobs), and some walk through many states, so a machine shared with another heavy job (a second
  // test run, the bench) must not fail them by the clock. The default 30 s did, at 2 cores.
  timeout: 90_000,
  expect: {
    timeout: 20_000,
    // Same machine type and Chromium in CI: a small tolerance absorbs anti-aliasing, not a change of look.
    toHaveScreenshot: { maxDiffPixelRatio: 0.01 },
  },
  // The screenshots double as the README's gallery (see e2e/gallery.spec.ts).
  snapshotPathTemplate: '{testDir}/../docs/gallery/{arg}{ext}',
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: chromiumLaunchOptions(),
    trace: 'retain-on-failure',
  },
})
