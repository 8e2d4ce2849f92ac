import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  define: {
    __API__: JSON.stringify('https://api.test.example'),
    __VERSION__: JSON.stringify('0.0.0-test'),
  },
  test: {
    environment: 'happy-dom',
    include: ['test/**/*.test.ts'],
    // The package tests pack and install the built package: `npm run test:package`, after the build.
    exclude: [...configDefaults.exclude, 'test/package/**'],
    restoreMocks: true,
    unstubGlobals: true,
  },
})
