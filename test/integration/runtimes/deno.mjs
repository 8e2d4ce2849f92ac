// Deno: its own server, on a port the system picks, named on stdout once it listens. It reads only
// the three variables (the test grants no other: --allow-env names them, --allow-net 127.0.0.1).
import { controller } from './controller.mjs'

const env = Object.fromEntries(['SERVICE_URL', 'SERVICE_KEY', 'SERVICE_SECRET'].map((name) => [name, Deno.env.get(name)]))
Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => console.log(`listening ${port}`) }, controller(env))
