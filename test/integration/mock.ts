// The mock service for one test file of the packages working together, taken as an integrator's
// tests take it: started with the test kit (`@service-auth/mock`), steered with the knob client
// (`@service-auth/mock/knobs`), reset before each test and stopped after the file.
import { startMockService, type MockService } from '@service-auth/mock'
import { KnobClient } from '@service-auth/mock/knobs'
import { createClient } from 'service-auth/server'
import { afterAll, beforeAll, beforeEach } from 'vitest'

export interface TestMock {
  url: string
  /** The key the tests' clients use, and its secret (Base64). */
  key: { key: string; secret: string }
  knobs: KnobClient
  /** POST /v1/entity/challenges as the embed sends it; the Challenge. */
  createChallenge(): Promise<{ id: string; expiresAt: string; pollingUrl: string; authTokenUrl: string }>
  /** Enrols (signed) and redeems the enrollment as a phone; the device id. */
  provisionPhone(identifier: string): Promise<string>
  /** The identity's phone signs; the token the widget would get. */
  sign(challengeId: string, identifier: string): Promise<string>
}

export function useMock(): TestMock {
  const mock = {} as TestMock
  let service: MockService | undefined
  beforeAll(async () => {
    service = await startMockService({ testKeys: false })
    const key = { key: service.key, secret: service.secret }
    const knobs = new KnobClient(service.url)
    Object.assign(mock, {
      url: service.url,
      key,
      knobs,
      async createChallenge() {
        const res = await fetch(`${service!.url}/v1/entity/challenges`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ key: key.key, returnAuthImageData: false }),
        })
        if (res.status !== 201) throw new Error(`create challenge answered ${res.status}: ${await res.text()}`)
        return res.json()
      },
      async provisionPhone(identifier: string) {
        const { enrollment } = await createClient({ baseUrl: service!.url, key: key.key, secret: key.secret }).enroll({ identifier })
        return (await knobs.provisionDevice({ token: `serviceauth:enroll:${enrollment.id}` })).device.id
      },
      async sign(challengeId: string, identifier: string) {
        return (await knobs.signChallenge(challengeId, { identifier })).token
      },
    } satisfies TestMock)
  })
  beforeEach(() => mock.knobs.reset())
  afterAll(() => service?.close())
  return mock
}
