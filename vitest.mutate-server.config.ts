// The tests of service-auth/server, for `npm run mutate:server`: its unit tests and its run against
// the mock service. Not the runtimes' test, which serves the built package, not the sources Stryker mutates.
import { defineConfig } from 'vitest/config'
import base from './vitest.config.js'

export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ['packages/service-auth/test/server/*.test.ts', 'test/integration/server-helper.test.ts'],
  },
})
