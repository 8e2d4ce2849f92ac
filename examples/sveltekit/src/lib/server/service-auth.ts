// The service's settings, from the server's environment at run time, and the sessions (kept in
// memory here; use your real session store).
import { env } from '$env/dynamic/private'
import { createClient, type Client } from 'service-auth/server'

export function serviceAuth(): { serviceUrl: string; key: string; secret: string; client: Client } {
  const { SERVICE_URL, SERVICE_KEY, SERVICE_SECRET } = env
  if (!SERVICE_URL || !SERVICE_KEY || !SERVICE_SECRET) throw new Error('Set SERVICE_URL, SERVICE_KEY and SERVICE_SECRET (npx service-auth-mock prints them).')
  return {
    serviceUrl: SERVICE_URL,
    key: SERVICE_KEY,
    secret: SERVICE_SECRET,
    client: createClient({ baseUrl: SERVICE_URL, key: SERVICE_KEY, secret: SERVICE_SECRET }),
  }
}

/** Your user store: who may sign in, by the identifier the service knows them by. */
export const users = new Map([['ada@example.com', { name: 'Ada' }]])

export const sessions = new Map<string, { name: string }>()
