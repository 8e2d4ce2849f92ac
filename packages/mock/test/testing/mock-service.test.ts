// @vitest-environment node
// The kit on a mock shared by many tests: `isolate: true` takes a key of the test's own, and
// close() frees it when the test ends, with everything the test made with it.
import { createClient } from 'service-auth/server'
import { expect, it } from 'vitest'
import { connectMockService, startMockService } from '../../src/index.js'

it("an isolated connection's close() frees its key and what the test made with it; a second close() does nothing", async () => {
  const shared = await startMockService()
  try {
    const mine = await connectMockService({ url: shared.url, isolate: true })
    const api = createClient({ baseUrl: shared.url, key: mine.key, secret: mine.secret })
    await mine.enrolPhone('ada@example.com')
    expect((await api.identities.get('ada@example.com')).tokens).toHaveLength(1)

    await mine.close()
    await expect(api.identities.list()).rejects.toMatchObject({ status: 401 })
    await mine.close()
    // The shared mock and its own key go on.
    const own = createClient({ baseUrl: shared.url, key: shared.key, secret: shared.secret })
    expect(await own.identities.list()).toEqual([])
  } finally {
    await shared.close()
  }
})
