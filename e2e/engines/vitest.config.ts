import { defineConfig } from 'vitest/config'

// The engines' suite (e2e/engines/): the same scenarios in Chromium, Firefox and WebKit, each
// engine a file. Against the built bundle, as the Playwright specs are: run after `npm run build`.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['e2e/engines/*.test.ts'],
    // One engine at a time: each drives a browser and a demo of its own, and on two cores (shared
    // with whatever else runs) three at once would only make each slower.
    fileParallelism: false,
    // Bounds that end a hang, not a pace: every wait is on state (e2e/until.ts), and a machine
    // shared with another heavy job must not fail a scenario by the clock.
    testTimeout: 90_000,
    hookTimeout: 120_000,
  },
})
