// `npm start`: the demo on fixed ports, for trying it by hand.
import { startDemo } from './harness.ts'
import { readAccessOptions } from './service/service-config.ts'

function portFrom(name: string, fallback: number): number {
  const text = process.env[name]
  const port = Number(text || fallback)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`${name} must be a port number, not "${text}".`)
    process.exit(1)
  }
  return port
}

try {
  // The knobs are on: the demo's phone page and QA panel drive them. They answer the app's pages
  // and the service's own, and these flags add others; both servers answer only their own names.
  const { knobsOrigins, allowedHosts } = readAccessOptions(process.env, process.argv.slice(2))
  const demo = await startDemo({ appPort: portFrom('PORT', 8080), servicePort: portFrom('SERVICE_PORT', 8081), knobsOrigins, allowedHosts })
  console.log(`Demo: ${demo.appUrl}/login`)
  console.log(`Every page (enrol, phone, widget set-ups): ${demo.appUrl}/`)
  console.log(`Service: ${demo.serviceUrl} (knobs at ${demo.serviceUrl}/__knobs/, for the demo's pages only)`)
  let stopping = false
  const stop = () => {
    // A second Ctrl-C while closing means "now".
    if (stopping) process.exit(1)
    stopping = true
    void demo.close().then(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}
