// Sessions in memory, kept on globalThis: Next.js bundles route handlers and pages apart, each
// with its own copy of this module. Use your real session store.
import type { User } from './service-auth'

const store = ((globalThis as { sessions?: Map<string, User> }).sessions ??= new Map())

export const SESSION_COOKIE = 'session'

export const startSession = (user: User): string => {
  const id = crypto.randomUUID()
  store.set(id, user)
  return id
}

export const findSession = (id: string | undefined): User | undefined => (id ? store.get(id) : undefined)

export const endSession = (id: string | undefined): void => void (id && store.delete(id))
