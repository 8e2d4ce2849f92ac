// Replaced at build time by esbuild's `define` (see build.mjs and vitest.config.ts).
declare const __API__: string
declare const __VERSION__: string
/** The SRI hash (sha256) of the stylesheet built beside the IIFE. */
declare const __STYLE_INTEGRITY__: string
