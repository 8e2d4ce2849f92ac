#!/usr/bin/env node
// `service-auth-mock`, the package's command (its `bin`), and `npm run service` in this
// repository: the one entry with side effects of the package. It runs the mock service until
// Ctrl-C.
import { runCommand } from './command/command-line.js'

const result = await runCommand(process.argv.slice(2), process.env, console)
if ('exitCode' in result) {
  process.exitCode = result.exitCode
} else {
  let stopping = false
  const stop = () => {
    // A second Ctrl-C while closing means "now".
    if (stopping) process.exit(1)
    stopping = true
    void result.close().then(() => {
      console.log('Stopped.')
      process.exit(0)
    })
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
