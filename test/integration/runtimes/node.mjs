// Node: the fetch handler behind @hono/node-server, the usual way to serve one on Node, on a port
// the system picks, named on stdout once it listens.
import { serve } from '@hono/node-server'
import { controller } from './controller.mjs'

serve({ hostname: '127.0.0.1', port: 0, fetch: controller(process.env) }, ({ port }) => console.log(`listening ${port}`))
