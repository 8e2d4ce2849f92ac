// `service-auth-mock` with its arguments, killed with -9 by itself the moment it prints its
// banner's first line (`Service: ...`), before anything else can happen in the process: what
// the banner promises must be on disk by then. Run by start-order.test.ts as its own process.
import { runCommand } from '../../src/command/command-line.js'

await runCommand(process.argv.slice(2), process.env, {
  log(line) {
    if (line.startsWith('Service: ')) process.kill(process.pid, 'SIGKILL')
  },
  error(line) {
    console.error(line)
  },
})
