// `npm run mutate:server`: mutation testing of service-auth/server (the controller helper) with its
// unit tests and its run against the mock service; the same settings as the embed's run
// (stryker.config.mjs), its own report. index.ts only re-exports and resources.ts only declares types.
import base from './stryker.config.mjs'

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  vitest: { configFile: 'vitest.mutate-server.config.ts' },
  mutate: ['packages/service-auth/src/server/*.ts', '!packages/service-auth/src/server/index.ts', '!packages/service-auth/src/server/resources.ts'],
  jsonReporter: { fileName: 'reports/mutation/server.json' },
}
