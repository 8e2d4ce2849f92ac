// The processes an end-to-end test starts (a built example app), on ports of their own.
import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'

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
