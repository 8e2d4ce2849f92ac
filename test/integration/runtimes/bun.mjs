// Bun: its own server, on a port the system picks, named on stdout once it listens.
import { controller } from './controller.mjs'

const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: controller(process.env) })
console.log(`listening ${server.port}`)
