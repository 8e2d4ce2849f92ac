// The server-side half: the service client and who may sign in. Read from the environment on
// first use, not when the module loads: `next build` loads every route without your secrets.
import { createClient, type Client } from 'service-auth/server'

export interface User {
  name: string
}

/** Your user store: who may sign in, by the identifier the service knows them by. */
export const users = new Map<string, User>([['ada@example.com', { name: 'Ada' }]])

let settings: { serviceUrl: string; key: string; secret: string; client: Client } | undefined

/** The service's URL, the API key and secret, and a client; createClient says which is missing. */
export function serviceAuth() {
  if (!settings) {
    const { SERVICE_URL = '', SERVICE_KEY = '', SERVICE_SECRET = '' } = process.env
    const client = createClient({ baseUrl: SERVICE_URL, key: SERVICE_KEY, secret: SERVICE_SECRET })
    settings = { serviceUrl: SERVICE_URL, key: SERVICE_KEY, secret: SERVICE_SECRET, client }
  }
  return settings
}
