// Replaced at build time by esbuild's `define` (see build.mjs and vitest.config.ts).
declare const __API__: string
declare const __VERSION__: string

// ES2024, in every browser the embed supports (Chrome 111, Firefox 119, Safari 16.4) and in
// Node 20; TypeScript's lib for it is not in the project's target.
interface String {
  /** Whether the string has no lone surrogate. */
  isWellFormed(): boolean
}
