// `service-auth-mock [options]`: its help, its mistakes and their exit codes,
// apart from the process (cli.ts), so that all of it can be tested in one process.
import { startService, type ServiceHandle } from '../service/server.js'
import { describeState, exportState, openState } from './state-options.js'
import { rememberedCredentials } from '../store/remembered-credentials.js'
import { runCheckCommand } from '../testing/check-controller/command.js'
import { readMockCommand, startLines } from './mock-command.js'
import { badPortReason, isBadPort } from '../common/bad-ports.js'
import { listenRefusedReason } from '../common/listen-refused.js'
import { COMMAND_OPTIONS, DEFAULT_PORT, UsageError } from './options.js'
import { commandHelp } from './usage.js'

/** Where the command writes: the console, in cli.ts. */
export interface Output {
  log(text: string): void
  error(text: string): void
}

/** How a run ended: with an exit code, or with the mock service listening until it is stopped. */
export type CommandResult = { exitCode: number } | { service: ServiceHandle; close(): Promise<void> }

export async function runCommand(args: readonly string[], env: Record<string, string | undefined>, output: Output): Promise<CommandResult> {
  // The one subcommand: the check of a controller, against a mock running elsewhere.
  if (args[0] === 'check-controller') return { exitCode: await runCheckCommand(args.slice(1), env, output) }
  try {
    return await mock([...args], env, output)
  } catch (error) {
    if (error instanceof UsageError) {
      output.error(`${error.message}\n\n${commandHelp()}`)
      return { exitCode: 2 }
    }
    // A bad setting: the message names it.
    output.error(error instanceof Error ? error.message : String(error))
    return { exitCode: 1 }
  }
}

async function mock(args: string[], env: Record<string, string | undefined>, output: Output): Promise<CommandResult> {
  const read = readMockCommand(args, env)
  if (read.help) {
    output.log(commandHelp())
    return { exitCode: 0 }
  }
  if (read.state.exportTo !== undefined) {
    const count = await exportState(read.state)
    output.log(`Exported ${count} records from ${read.state.dataDir} to ${read.state.exportTo}.`)
    return { exitCode: 0 }
  }
  const store = await openState(read.state)
  try {
    // Made up and kept by an earlier start (or brought by an import), or made up now.
    const kept = store.collection('credentials').load().length > 0
    const config = read.configure(() => rememberedCredentials(store))
    const service = await startService({ ...config.options, store }).catch((error: Error) => {
      throw listenRefused(config.options.port, error)
    })
    // Everything the start made, the credentials of a new data directory and the test identity
    // with its phone, is on disk before the banner says the service is there: a kill -9 the
    // moment it appears loses none of it.
    try {
      await store.stored()
    } catch (error) {
      await service.close()
      throw error
    }
    for (const line of startLines(config, service, { kept })) output.log(line)
    output.log(describeState(store))
    // Such a port listens, and curl (or any client but fetch) reaches it, so the start goes on;
    // but a browser fails every request there with a network error that names nothing, so the
    // start says it now, on stderr, apart from the banner a script may read. The port is the
    // one browsers use: the public base URL's when a proxy stands in front.
    const { baseUrl } = config.options
    const { port } = new URL(baseUrl ?? service.url)
    if (isBadPort(port)) output.error(badPortWarning(port, baseUrl !== undefined))
    return {
      service,
      async close() {
        await service.close()
        await store.close()
      },
    }
  } catch (error) {
    await store.close()
    throw error
  }
}

/** The warning for a port browsers refuse, naming the way to another: the listening port's, or the public base URL's. */
function badPortWarning(port: string, behindProxy: boolean): string {
  const start =
    `Warning: ${badPortReason(port)}: the service answers there (curl reaches it), but a login page's embed never can, ` +
    'nor can anything that uses fetch (the test kit, KnobClient, check-controller).'
  if (behindProxy) {
    const { flag, env, config } = COMMAND_OPTIONS.baseUrl
    return `${start} Give the public base URL another port, with --${flag} (or ${env}, or "${config}" in the config file).`
  }
  const { flag, env, config } = COMMAND_OPTIONS.port
  return `${start} Choose another with --${flag} (or ${env}, or "${config}" in the config file): the default, ${DEFAULT_PORT}, or 0 for a free one.`
}

/** Node's refusal to listen on `port`, said with the option that chooses another (listen-refused.ts). */
function listenRefused(port: number, error: Error): Error {
  const reason = listenRefusedReason(port, error, { option: `--${COMMAND_OPTIONS.port.flag}`, free: '0 picks a free one' })
  return reason === undefined ? error : new Error(reason)
}
