// `npm run service` as a child process, the way a person starts it: `service-auth-mock` from its
// source (src/cli.ts) with command-line options and environment, read from what it prints.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { build } from '../../build.mjs'

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))
const NODE_MODULES = fileURLToPath(new URL('../../../../node_modules', import.meta.url))

export interface ServiceProcess {
  child: ChildProcess
  /** `http://127.0.0.1:PORT` */
  url: string
  /** Everything it printed so far, both streams. */
  output(): string
  /**
   * Resolves with the first line, printed before or after, that matches: what the service prints
   * as it answers may reach this end of the pipe after the answer does.
   */
  line(pattern: RegExp): Promise<RegExpExecArray>
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>
}

/** How to run the service with `args`: the program and its arguments. */
export type ServiceCommand = (args: string[]) => string[]

/** The command that runs the service from its source, as `npm run service` does: for a process of the caller's own making too (under a shell, say). */
export const serviceCommand: ServiceCommand = (args) => [process.execPath, '--import', 'tsx', CLI, ...args]

/**
 * The command as the package ships it (dist/cli.mjs, bundled by its build.mjs), built into `dir`
 * from the sources as they are now. It starts in a third of the time tsx takes to compile the
 * sources, which counts for a test that starts the service fifty times.
 */
export async function builtServiceCommand(dir: string): Promise<ServiceCommand> {
  // Beside a link to the repository's node_modules: its imports (jose, lmdb) resolve as in an installed package.
  symlinkSync(NODE_MODULES, join(dir, 'node_modules'), 'dir')
  await build({ outdir: join(dir, 'mock'), types: false })
  const cli = join(dir, 'mock', 'cli.mjs')
  return (args) => [process.execPath, cli, ...args]
}

/** Its environment: port 0 (any free one, read back from what it prints), no SERVICE_DATA of the caller's, and `env`. */
export const serviceEnv = (env: Record<string, string> = {}): NodeJS.ProcessEnv => ({ ...process.env, SERVICE_PORT: '0', SERVICE_DATA: '', ...env })

/** Who runs it, when not this process's user: for a test of what another user may do (root only). */
export interface RunAs {
  uid: number
  gid: number
}

const start = (args: string[], env: Record<string, string>, command = serviceCommand, as?: RunAs) => {
  const [program, ...rest] = command(args)
  return spawn(program!, rest, { env: serviceEnv(env), stdio: ['ignore', 'pipe', 'pipe'], ...as })
}

/** What a process prints, line by line: the service's banner among it, and any other line a caller waits for. */
export interface Printed {
  /** Resolves with the service's URL once it printed its whole banner. */
  banner: Promise<string>
  /** Resolves with the first line (printed before or after) that matches. */
  line(pattern: RegExp): Promise<RegExpExecArray>
  output(): string
}

export function readPrinted(child: ChildProcess): Printed {
  let printed = ''
  const seen: string[] = []
  const waiting: { pattern: RegExp; resolve: (match: RegExpExecArray) => void }[] = []
  let url = ''
  let bannerDone = (_url: string) => {}
  const banner = new Promise<string>((resolve) => (bannerDone = resolve))
  for (const input of [child.stdout!, child.stderr!]) {
    createInterface({ input }).on('line', (line) => {
      printed += line + '\n'
      seen.push(line)
      url ||= /^Service: (http:\/\/\S+)/.exec(line)?.[1] ?? ''
      // The state line comes last: the banner is complete.
      if (url && line.startsWith('State: ')) bannerDone(url)
      for (const wait of [...waiting]) {
        const match = wait.pattern.exec(line)
        if (match) {
          waiting.splice(waiting.indexOf(wait), 1)
          wait.resolve(match)
        }
      }
    })
  }
  return {
    banner,
    line: (pattern) => {
      for (const line of seen) {
        const match = pattern.exec(line)
        if (match) return Promise.resolve(match)
      }
      return new Promise((resolve) => waiting.push({ pattern, resolve }))
    },
    output: () => printed,
  }
}

/** Starts the service and resolves once it printed its banner; rejects with its output when it exits first. */
export async function startServiceProcess(
  args: string[],
  env: Record<string, string> = {},
  { command = serviceCommand }: { command?: ServiceCommand } = {},
): Promise<ServiceProcess> {
  const child = start(args, env, command)
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  const printed = readPrinted(child)
  const url = await Promise.race([
    printed.banner,
    exited.then((code) => Promise.reject(new Error(`The service exited (${code}) before it started:\n${printed.output()}`))),
  ])
  return { child, url, output: printed.output, line: printed.line, exited }
}

/** How a command run to its end ended: its exit code, or the signal that ended it, and what it printed. */
export interface CommandRun {
  code: number | null
  signal: NodeJS.Signals | null
  output: string
}

/** Runs the command to its end (an export, or a start that is refused); its exit code and output. */
export async function runServiceCommand(
  args: string[],
  env: Record<string, string> = {},
  { command = serviceCommand, as }: { command?: ServiceCommand; as?: RunAs } = {},
): Promise<CommandRun> {
  const child = start(args, env, command, as)
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  // 'close', not 'exit': by then everything it printed has been read.
  const [code, signal] = await once(child, 'close')
  return { code: code as number | null, signal: signal as NodeJS.Signals | null, output }
}
