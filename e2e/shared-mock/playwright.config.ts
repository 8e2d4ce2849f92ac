// The sign-in suite two ways, as integrators run it: every test against ONE mock that the whole
// run shares (started once, as Playwright's webServer would start `npx service-auth-mock`), each
// test with a key of its own there; and every test with a mock of its own (startMockService).
// Four workers at once: tests that touched each other's codes, failures, delays or holds would
// show it here. `npx playwright test -c e2e/shared-mock`; `--repeat-each 10` for a soak.
import { defineConfig } from '@playwright/test'
import { chromiumLaunchOptions } from '../chromium.js'
import type { MockOptions } from './fixtures.js'

export default defineConfig<MockOptions>({
  testDir: '.',
  fullyParallel: true,
  workers: 4,
  forbidOnly: !!process.env.CI,
  retries: 0,
  globalSetup: './shared-mock.ts',
  // Bounds that end a hang, not a pace: every wait is on state. Four workers share two cores here.
  timeout: 60_000,
  expect: { timeout: 20_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never', outputFolder: '../../playwright-report/shared-mock' }]],
  outputDir: '../../test-results/shared-mock',
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: chromiumLaunchOptions(),
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'one shared mock', use: { mock: 'shared' } },
    { name: 'a mock per test', use: { mock: 'own' } },
  ],
})
