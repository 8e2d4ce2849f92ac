// The global setup: one mock for the whole run, the built `service-auth-mock` command, as
// Playwright's webServer would start it, but on a free port (a fixed one can be taken on a
// shared machine, and webServer needs one). Its address reaches every worker in the environment.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

/** Where the workers find the shared mock. */
export const SHARED_MOCK_URL = 'SHARED_MOCK_URL'

const COMMAND = fileURLToPath(new URL('../../packages/mock/dist/cli.mjs', import.meta.url))

export default async function startSharedMock(): Promise<() => Promise<void>> {
  const mock = spawn(process.execPath, [COMMAND, '--port', '0', '--in-memory'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const lines = createInterface({ input: mock.stdout! })
  for await (const line of lines) {
    const url = /^Service: (http:\/\/\S+)/.exec(line)?.[1]
    if (url) process.env[SHARED_MOCK_URL] = url
    if (line === 'Ctrl-C stops it.') break
  }
  if (!process.env[SHARED_MOCK_URL]) throw new Error('service-auth-mock printed no "Service:" line.')
  // Read on, so a full pipe never stalls it.
  lines.on('line', () => {})
  return async () => {
    const exited = once(mock, 'exit')
    mock.kill('SIGINT')
    await exited
  }
}
