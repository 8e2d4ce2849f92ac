// The processes an end-to-end test starts (a built example app), on ports of their own.
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import { createInterface } from 'node:readline'

/** A port nothing listens on now, for a server that must be told its port (adapter-node prints the port it was given, so 0 would not tell). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as { port: number }
  server.close()
  await once(server, 'close')
  return port
}

/** Stops a child process that is still running, and resolves once it has exited. */
export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  child.kill()
  await once(child, 'exit')
}

/**
 * Starts a server as its README says, and resolves once it prints its address (the first
 * `http://127.0.0.1:<port>` on `output`), to the process and that origin: waiting on its word, not
 * on time. A program that is not installed, or a server that ends first, rejects and says so.
 */
export async function startServer(
  [program, ...args]: readonly string[],
  { env, output = 'stdout' }: { env: Record<string, string>; output?: 'stdout' | 'stderr' },
): Promise<{ child: ChildProcess; origin: string }> {
  const child = spawn(program!, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  const [failed] = await Promise.race([once(child, 'error'), once(child, 'spawn').then(() => [undefined])])
  if (failed) throw new Error(`${program} cannot start (${(failed as Error).message}): bash .ci/run installs what the tests need`)
  let origin: string | undefined
  for await (const line of createInterface({ input: child[output] })) {
    origin = /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0]
    if (origin) break
  }
  if (!origin) throw new Error(`${[program, ...args].join(' ')} ended (${child.exitCode}) before it listened`)
  // Drained from now on, so that a full pipe never stops it (Python's and PHP's servers log every request).
  child.stdout!.resume()
  child.stderr!.resume()
  return { child, origin }
}
