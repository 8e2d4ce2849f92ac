#!/usr/bin/env node
// `service-auth-mock` as npm links it: this committed file, which runs the built command
// (dist/cli.mjs). npm links a package's bin when it installs the package, and skips, without a
// word, one whose file is missing. In this repository a workspace is linked before the build has
// written dist/, so a bin naming dist/cli.mjs left a fresh clone with no command at all; this file
// is there from the clone on. In the published tarball dist/ is always there beside it.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const cli = new URL('../dist/cli.mjs', import.meta.url)
if (existsSync(cli)) {
  await import('../dist/cli.mjs')
} else {
  // Only a checkout that was never built gets here: say how to build it rather than show
  // Node's ERR_MODULE_NOT_FOUND and its stack.
  console.error(`service-auth-mock is not built yet (no ${fileURLToPath(cli)}): run npm run build at the repository's root.`)
  process.exitCode = 1
}
