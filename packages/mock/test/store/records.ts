// Records of the mock's own shapes, for the tests that write to its collections through the
// store: a data directory holding anything else is refused when it is opened again (schema.ts).
import type { IdentityRecord } from '../../src/service/identities/identity-store.js'

/** An identity of app `test`, with no phone, stored under `id`. */
export const identityRecord = (id: string, changes: Partial<IdentityRecord> = {}): IdentityRecord => ({
  id,
  app: 'test',
  seq: 1,
  createdAt: '2026-01-02T03:04:05.000Z',
  identifier: `${id}@example.com`,
  nickname: null,
  role: 'ROLE_USER',
  locked: false,
  devices: [],
  ...changes,
})
