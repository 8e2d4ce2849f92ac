import { defineConfig } from 'vitest/config'

// The package as integrators get it: packed, installed into a fresh project, type-checked,
// bundled and run. Slow (npm and tsc run as child processes), so apart from the unit tests.
export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/package/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
  },
})
