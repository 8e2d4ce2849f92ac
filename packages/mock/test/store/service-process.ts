// `npm run service` as a child process, the way a person starts it: `service-auth-mock` from its
// source (src/cli.ts) with command-line options and environment, read from what it prints.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))

export interface ServiceProcess {
  child: ChildProcess
  /** `http://127.0.0.1:PORT` */
  url: string
  /** Everything it printed so far, both streams. */
  output(): string
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>
}

const start = (args: string[], env: Record<string, string>) =>
  spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    // Port 0: any free one, read back from what it prints. The rest from the caller.
    env: { ...process.env, SERVICE_PORT: '0', SERVICE_DATA: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })

/** Starts the service and resolves once it printed its banner; rejects with its output when it exits first. */
export async function startServiceProcess(args: string[], env: Record<string, string> = {}): Promise<ServiceProcess> {
  const child = start(args, env)
  let printed = ''
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  const lines = [createInterface({ input: child.stdout! }), createInterface({ input: child.stderr! })]
  const banner = new Promise<string>((resolve) => {
    let url = ''
    for (const input of lines) {
      input.on('line', (line) => {
        printed += line + '\n'
        url ||= /^Service: (http:\/\/\S+)/.exec(line)?.[1] ?? ''
        // The state line comes last: the banner is complete.
        if (url && line.startsWith('State: ')) resolve(url)
      })
    }
  })
  const url = await Promise.race([banner, exited.then((code) => Promise.reject(new Error(`The service exited (${code}) before it started:\n${printed}`)))])
  return { child, url, output: () => printed, exited }
}

/** Runs the command to its end (an export, or a start that is refused); its exit code and output. */
export async function runServiceCommand(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  const child = start(args, env)
  let output = ''
  child.stdout!.on('data', (chunk) => (output += chunk))
  child.stderr!.on('data', (chunk) => (output += chunk))
  // 'close', not 'exit': by then everything it printed has been read.
  const [code] = await once(child, 'close')
  return { code: code as number | null, output }
}
