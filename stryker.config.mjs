// `npm run mutate`: mutation testing of the embed's sources (not the entries, which only wire things
// up, nor server/, which has its own tests against the mock) with the unit tests that cover it.
// It shows which tests bite; it stays out of `npm test` because it takes minutes.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  mutate: [
    'packages/service-auth/src/*.ts',
    '!packages/service-auth/src/auto.ts',
    '!packages/service-auth/src/index.ts',
    '!packages/service-auth/src/env.d.ts',
    '!packages/service-auth/src/react.tsx',
  ],
  // Stryker's tsconfig step loads `typescript`, and TypeScript 7 has no JavaScript API: point it at
  // a file that does not exist, so the step has nothing to rewrite (the sandbox needs no references).
  tsconfigFile: 'tsconfig.stryker-none.json',
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  thresholds: { high: 98, low: 95, break: null },
  concurrency: 2,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
}
