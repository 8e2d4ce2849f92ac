// The size budget of the CDN script, in one place: build.mjs writes it into dist/manifest.json,
// test/build.test.ts holds the build to it, and the bench reports against it.

/** The file the budget holds: the CDN script (an IIFE), the one every page with the widget loads. */
export const BUDGET_FILE = 'service-auth.js'

/** Its budget: 3,584 B (3.5 KiB) gzipped at level 9, as the manifest measures it. */
export const IIFE_GZIP_BUDGET = 3584
