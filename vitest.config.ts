import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url))

export default defineConfig({
  define: {
    __API__: JSON.stringify('https://api.test.example'),
    __VERSION__: JSON.stringify('0.0.0-test'),
  },
  resolve: {
    // The packages by their names, as react.tsx, the mock, the demo and the examples import them,
    // taken from the sources as the type check does (the root tsconfig's paths), so that the unit
    // tests need no build.
    alias: [
      { find: /^service-auth$/, replacement: source('packages/service-auth/src/index.ts') },
      { find: /^service-auth\/server$/, replacement: source('packages/service-auth/src/server/index.ts') },
      { find: /^service-auth\/react$/, replacement: source('packages/service-auth/src/react.tsx') },
      { find: /^@service-auth\/mock$/, replacement: source('packages/mock/src/index.ts') },
      { find: /^@service-auth\/mock\/knobs$/, replacement: source('packages/mock/src/testing/knob-client.ts') },
      { find: /^@service-auth\/mock\/service$/, replacement: source('packages/mock/src/service/index.ts') },
    ],
  },
  test: {
    environment: 'happy-dom',
    setupFiles: ['test/setup/happy-dom.ts'],
    include: ['packages/*/test/**/*.test.{ts,tsx}', 'demo/test/**/*.test.ts', 'test/**/*.test.{ts,tsx}'],
    // The package tests pack and install the built packages: `npm run test:package`, after the build.
    exclude: [...configDefaults.exclude, 'test/package/**'],
    // Many tests talk to a real mock service over HTTP and wait on its answers, never on time; the
    // bound is there to end a hang, not to set a pace, so it is wide enough that a machine busy
    // with another test run or the bench does not fail them (the default of 5 s did).
    testTimeout: 30_000,
    hookTimeout: 60_000,
    restoreMocks: true,
    unstubGlobals: true,
  },
})
