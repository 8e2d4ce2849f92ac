// A virtual X display of the suite's own: WebKitGTK's MiniBrowser has no headless mode. Xvfb
// picks a free display number itself (-displayfd), so runs beside each other never collide.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import type { Readable } from 'node:stream'

export interface Display {
  /** `:N`, for DISPLAY. */
  name: string
  close(): Promise<void>
}

export async function startXvfb(): Promise<Display> {
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] })
  let stderr = ''
  xvfb.stderr!.on('data', (chunk) => (stderr += chunk))
  const number = await new Promise<string>((resolve, reject) => {
    let written = ''
    ;(xvfb.stdio[3] as Readable).on('data', (chunk) => {
      written += chunk
      if (written.includes('\n')) resolve(written.trim())
    })
    xvfb.once('error', (error) => reject(new Error(`Xvfb could not start (${error.message}): \`apt-get install -y --no-install-recommends xvfb\` on Debian.`)))
    xvfb.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it was ready: ${stderr}`)))
  })
  return { name: ':' + number, close: () => stop(xvfb) }
}

/** Ends a child process this suite started, and waits until it has gone. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const gone = once(child, 'exit')
  child.kill('SIGTERM')
  await gone
}
