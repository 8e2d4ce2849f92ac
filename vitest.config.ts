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
    restoreMocks: true,
    unstubGlobals: true,
  },
})
