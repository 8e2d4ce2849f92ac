// Preloaded (NODE_OPTIONS=--import) into every Node process of a Playwright run by
// farm-rate.ts: each HTTP server's challenge creations (POST /v1/entity/challenges) are noted
// with the time they arrived, and written to CREATION_COUNTER_DIR/<pid>.json when the process
// ends. Only the mock serves that path, so the notes are the creations its test workers made.
// Plain JavaScript: NODE_OPTIONS reaches processes that run no TypeScript loader.
import { writeFileSync } from 'node:fs'
import { Server } from 'node:http'
import { join } from 'node:path'

const dir = process.env.CREATION_COUNTER_DIR
if (dir) {
  const arrivals = []
  const emit = Server.prototype.emit
  Server.prototype.emit = function (event, req, ...rest) {
    if (event === 'request' && req.method === 'POST' && /^\/v1\/entity\/challenges\/?(\?|$)/.test(req.url)) arrivals.push(Date.now())
    return emit.call(this, event, req, ...rest)
  }
  const write = () => {
    if (arrivals.length) writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(arrivals))
  }
  process.on('exit', write)
  // The shared mock ends on SIGINT; its own handler exits, which runs the one above.
}
