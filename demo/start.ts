// `npm start`: the demo on fixed ports, for trying it by hand, its state in a data directory
// (see demo/store/state-options.ts for the options).
import { startDemo } from './harness.ts'
import { describeState, exportState, openState, readStateOptions } from './store/state-options.ts'

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
  const state = readStateOptions(process.argv.slice(2), process.env)
  if (state.exportTo !== undefined) {
    const count = await exportState(state)
    console.log(`Exported ${count} records from ${state.dataDir} to ${state.exportTo}.`)
    process.exit(0)
  }
  const store = await openState(state)
  try {
    const demo = await startDemo({ appPort: portFrom('PORT', 8080), servicePort: portFrom('SERVICE_PORT', 8081), store })
    console.log(`Demo: ${demo.appUrl}/login`)
    console.log(`Every page (enrol, phone, widget set-ups): ${demo.appUrl}/`)
    console.log(`Service: ${demo.serviceUrl} (knobs at ${demo.serviceUrl}/__knobs/)`)
    console.log(describeState(store))
    let stopping = false
    const stop = () => {
      // A second Ctrl-C while closing means "now": what was answered is stored already.
      if (stopping) process.exit(1)
      stopping = true
      void demo.close().then(() => store.close()).then(() => process.exit(0))
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
