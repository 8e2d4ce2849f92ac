// The unit tests of the embed only, for `npm run mutate`: the mock's, the helper's and the build's
// tests do not run the embed's src/, so they would only slow each mutant down.
import { defineConfig } from 'vitest/config'
import base from './vitest.config.ts'

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['test/*.test.ts'],
    exclude: ['test/build.test.ts', 'test/readme.test.ts', 'test/bench-*.test.ts', 'test/chromium.test.ts'],
  },
})
