// Replaced at build time by esbuild's `define` (see build.mjs and vitest.config.ts).
declare const __API__: string
declare const __VERSION__: string
