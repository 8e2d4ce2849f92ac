// Starting and stopping the mock's HTTP servers (and an app's built on these helpers) the same way:
// loopback only, ephemeral port allowed.
import type { Server } from 'node:http'

/** Listens on 127.0.0.1 (never all interfaces: these are test servers) and resolves to the base URL. */
export function listen(server: Server, port = 0): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      const address = server.address()
      if (address === null || typeof address === 'string') {
        reject(new Error('The server has no TCP address.'))
        return
      }
      resolve(`http://127.0.0.1:${address.port}`)
    })
  })
}

/**
 * Stops accepting connections and drops the open ones, held long polls included: tests call
 * this between runs and must not wait for keep-alive sockets or polls to time out.
 */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) {
      resolve()
      return
    }
    server.close(() => resolve())
    server.closeAllConnections()
  })
}
