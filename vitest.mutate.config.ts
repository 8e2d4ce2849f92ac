// The unit tests of the embed only, for `npm run mutate`: the mock's, the helper's, the build's and the repository's
// tests do not run the embed's src/, so they would only slow each mutant down.
import { defineConfig } from 'vitest/config'
import base from './vitest.config.js'

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['packages/service-auth/test/*.test.ts'],
    exclude: ['packages/service-auth/test/build.test.ts'],
  },
})
