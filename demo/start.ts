// `npm start`: the demo on fixed ports, for trying it by hand, its state in a data directory. It
// takes the mock command's options for where the state is kept and who may reach it
// (readStartOptions: --data, --in-memory, --export, --import, --knobs-origin, --allowed-hosts).
import { describeState, exportState, openState, readStartOptions } from '@service-auth/mock/service'
import { APP_COLLECTIONS } from './app/collections.js'
import { startDemo } from './harness.js'

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
  const { state, knobsOrigins, allowedHosts } = readStartOptions(process.argv.slice(2), process.env)
  if (state.exportTo !== undefined) {
    const count = await exportState(state, { collections: APP_COLLECTIONS })
    console.log(`Exported ${count} records from ${state.dataDir} to ${state.exportTo}.`)
    process.exit(0)
  }
  // The knobs are on: the demo's phone page and QA panel drive them. They answer the app's pages
  // and the service's own, and these flags add others; both servers answer only their own names.
  const store = await openState(state, { collections: APP_COLLECTIONS })
  try {
    const demo = await startDemo({ appPort: portFrom('PORT', 8080), servicePort: portFrom('SERVICE_PORT', 8081), knobsOrigins, allowedHosts, store })
    console.log(`Demo: ${demo.appUrl}/login`)
    console.log(`Every page (enrol, phone, widget set-ups): ${demo.appUrl}/`)
    console.log(`Service: ${demo.serviceUrl} (knobs at ${demo.serviceUrl}/__knobs/, for the demo's pages only)`)
    console.log(describeState(store))
    let stopping = false
    const stop = () => {
      // A second Ctrl-C while closing means "now": what was answered is stored already.
      if (stopping) process.exit(1)
      stopping = true
      void demo
        .close()
        .then(() => store.close())
        .then(() => process.exit(0))
    }
    process.on('SIGINT', stop)
    process.on('SIGTERM', stop)
  } catch (error) {
    await store.close()
    throw error
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}
