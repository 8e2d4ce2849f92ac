// `npm run service`: the mock service on its own, configured from the environment.
import { generateCredentials } from '../common/credentials.ts'
import { startService } from './server.ts'

const env = process.env
const generated = generateCredentials()
const apiKey = env.SERVICE_API_KEY || generated.apiKey
const apiSecret = env.SERVICE_API_SECRET || generated.apiSecret
const port = Number(env.SERVICE_PORT || 8081)
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`SERVICE_PORT must be a port number, not "${env.SERVICE_PORT}".`)
  process.exit(1)
}
const allowedOrigins = (env.SERVICE_ALLOWED_ORIGINS ?? '')
  .split(',')
  .map((origin) => origin.trim())
  .filter(Boolean)

try {
  const service = await startService({ port, apiKey, apiSecret, allowedOrigins, knobs: env.SERVICE_KNOBS === '1' })
  console.log(`Service: ${service.url}`)
  // Print only what was made up here: a secret from the environment stays out of the terminal.
  if (!env.SERVICE_API_KEY) console.log(`API key (generated): ${apiKey}`)
  if (!env.SERVICE_API_SECRET) console.log(`API secret (generated, Base64): ${apiSecret}`)
  console.log(`Allowed origins: ${allowedOrigins.length ? allowedOrigins.join(', ') : 'any'}`)
  console.log(`Knobs: ${env.SERVICE_KNOBS === '1' ? `${service.url}/__knobs/` : 'off (SERVICE_KNOBS=1 turns them on)'}`)
  const stop = () => void service.close().then(() => process.exit(0))
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
} catch (error) {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
}
