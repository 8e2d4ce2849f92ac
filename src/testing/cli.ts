#!/usr/bin/env node
// `service-auth`, the package's command (its `bin`), and `npm run service` in this repository:
// the one entry with side effects of the test kit. `service-auth mock` starts the mock service
// until Ctrl-C.
import { startService } from '../../demo/service/server.js'
import { mockUsage, readMockCommand, startLines, USAGE, UsageError } from './mock-command.js'

const [command, ...args] = process.argv.slice(2)

try {
  if (command === 'mock') await mock(args)
  else if (command === undefined || command === '--help' || command === '-h' || command === 'help') console.log(USAGE)
  else throw new UsageError(`Unknown command ${JSON.stringify(command)}.`)
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`${error.message}\n\n${command === 'mock' ? mockUsage() : USAGE}`)
    process.exit(2)
  }
  // A bad setting: the message names it.
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}

async function mock(args: string[]): Promise<void> {
  const read = readMockCommand(args, process.env)
  if (read.help) {
    console.log(mockUsage())
    return
  }
  const service = await startService(read.config.options)
  for (const line of startLines(read.config, service)) console.log(line)
  let stopping = false
  const stop = () => {
    // A second Ctrl-C while closing means "now".
    if (stopping) process.exit(1)
    stopping = true
    void service.close().then(() => {
      console.log('Stopped.')
      process.exit(0)
    })
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}
