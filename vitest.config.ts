import { fileURLToPath } from 'node:url'
import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  define: {
    __API__: JSON.stringify('https://api.test.example'),
    __VERSION__: JSON.stringify('0.0.0-test'),
  },
  resolve: {
    // src/react.tsx imports the ES module by the package's name, as its build keeps it (one copy
    // of the widgets' state per page); the tests take it from the sources, as the type check does.
    alias: [{ find: /^service-auth$/, replacement: fileURLToPath(new URL('src/index.ts', import.meta.url)) }],
  },
  test: {
    environment: 'happy-dom',
    include: ['test/**/*.test.{ts,tsx}'],
    // The package tests pack and install the built package: `npm run test:package`, after the build.
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
