// @vitest-environment node
// handleControllerRequest against the real mock service over HTTP: the client signs every call,
// the knobs play the phone, and each failure the controller can meet is met for real.
import { randomBytes } from 'node:crypto'
import { SignJWT } from 'jose'
import { beforeEach, describe, expect, it } from 'vitest'
import { readQrPng } from '../../e2e/qr.js'
import { createClient, handleControllerRequest, type Client, type ControllerOptions } from 'service-auth/server'
import { freePort } from '../../e2e/processes.js'
import { useMock } from './mock.js'

const service = useMock()

interface User {
  identifier: string
}

let client: Client
let users: Map<string, User>
let sessions: string[]
/** What the controller told onRefused: the reason and the log line. */
let refusals: [string, string][]

beforeEach(() => {
  client = createClient({ baseUrl: service.url, key: service.key.key, secret: service.key.secret })
  users = new Map()
  sessions = []
  refusals = []
})

const options = (overrides: Partial<ControllerOptions<User>> = {}): ControllerOptions<User> => ({
  client,
  secret: service.key.secret,
  findUser: (identifier) => users.get(identifier),
  startSession: (user) => {
    sessions.push(user.identifier)
    return '/welcome'
  },
  onRefused: (reason, _claims, line) => refusals.push([reason, line]),
  ...overrides,
})

/** The embed's hand-over to the controller; `xhr: false` is a plain request, as a link would make. */
const request = (token: string, { xhr = true } = {}) => ({
  headers: { accept: 'application/json', 'x-service-auth': token, ...(xhr && { 'x-requested-with': 'XMLHttpRequest' }) },
})

/** Enrols through the client and provisions a phone with what the enrollment QR code says; the device id. */
async function enrolWithPhone(identifier: string, { known = true } = {}): Promise<string> {
  const { enrollment } = await client.enroll({ identifier })
  if (known) users.set(identifier, { identifier })
  return (await service.knobs.provisionDevice({ token: readQrPng(Buffer.from(enrollment.base64ImageData, 'base64')) })).device.id
}

/** A challenge as the embed creates it, signed by the phone; its id and the token the embed would get. */
async function signedChallenge(deviceId: string): Promise<{ id: string; token: string }> {
  const { id, pollingUrl } = await service.createChallenge()
  await service.knobs.signChallenge(id, { deviceId })
  // The token as the embed reads it: from the status poll.
  const { token } = (await (await fetch(pollingUrl)).json()) as { token: string }
  return { id, token }
}

async function stateOf(id: string): Promise<string> {
  const challenges = await service.knobs.challenges()
  return challenges.find((challenge) => challenge.id === id)!.state
}

const problemOf = (answer: { headers: Record<string, string | string[]>; body: string }) => {
  expect(answer.headers['Content-Type']).toBe('application/problem+json')
  return JSON.parse(answer.body)
}

describe('handleControllerRequest against the mock service', () => {
  it('signs in: the XHR gets 200 {location}, the challenge is consumed and the session started', async () => {
    const { id, token } = await signedChallenge(await enrolWithPhone('ada@example.com'))
    const answer = await handleControllerRequest(request(token), options())
    expect(answer).toMatchObject({ status: 200, headers: { 'Content-Type': 'application/json' } })
    expect(JSON.parse(answer.body)).toEqual({ location: '/welcome' })
    expect(sessions).toEqual(['ada@example.com'])
    expect(await stateOf(id)).toBe('consumed')
  })

  it('refuses a plain request, as a link or a form would make, with 400: the challenge stays for the embed’s own request', async () => {
    const { id, token } = await signedChallenge(await enrolWithPhone('ada@example.com'))
    const answer = await handleControllerRequest(request(token, { xhr: false }), options())
    expect(answer.status).toBe(400)
    expect(answer.headers.Location).toBeUndefined()
    expect(problemOf(answer)).toEqual({ type: 'about:blank', title: 'Bad Request', status: 400, detail: 'Only the sign-in embed may sign in here.' })
    expect(refusals).toEqual([
      [
        'not-xhr',
        'service-auth/server refused a sign-in (400, not-xhr): request without X-Requested-With: XMLHttpRequest, which the embed always sends and another site cannot add without your CORS consent: is it a link, a form or a script of your own?',
      ],
    ])
    expect(sessions).toEqual([])
    expect(await stateOf(id)).toBe('signed')
    // The same token, from the embed, still signs in.
    expect((await handleControllerRequest(request(token), options())).status).toBe(200)
    expect(sessions).toEqual(['ada@example.com'])
    expect(await stateOf(id)).toBe('consumed')
  })

  it('refuses a bad token with 401: another secret’s signature, or no JWT at all', async () => {
    const { id, token } = await signedChallenge(await enrolWithPhone('ada@example.com'))
    const [, payload] = token.split('.')
    const forged = await new SignJWT(JSON.parse(Buffer.from(payload!, 'base64url').toString())).setProtectedHeader({ alg: 'HS256' }).sign(randomBytes(32))
    for (const bad of [forged, 'not-a-token']) {
      const answer = await handleControllerRequest(request(bad), options())
      expect(answer.status).toBe(401)
      expect(problemOf(answer)).toMatchObject({ status: 401, title: 'Unauthorized' })
    }
    expect(refusals.map(([reason]) => reason)).toEqual(['signature', 'malformed'])
    expect(refusals[0]![1]).toBe(
      'service-auth/server refused a sign-in (401, signature): token not signed with this secret: does SERVICE_SECRET match the key?',
    )
    expect(sessions).toEqual([])
    expect(await stateOf(id)).toBe('signed')
  })

  it('refuses a user the app does not know with 403, and leaves the challenge unconsumed', async () => {
    const { id, token } = await signedChallenge(await enrolWithPhone('eve@example.com', { known: false }))
    const answer = await handleControllerRequest(request(token), options())
    expect(answer.status).toBe(403)
    expect(problemOf(answer)).toMatchObject({ status: 403, title: 'Forbidden' })
    expect(sessions).toEqual([])
    expect(await stateOf(id)).toBe('signed')
    expect(refusals).toEqual([
      ['unknown-user', 'service-auth/server refused a sign-in (403, unknown-user): user eve@example.com not in your store: findUser returned nothing'],
    ])
  })

  it('refuses a consumed challenge: the second use of a token is a 401', async () => {
    const { token } = await signedChallenge(await enrolWithPhone('ada@example.com'))
    expect((await handleControllerRequest(request(token), options())).status).toBe(200)
    const again = await handleControllerRequest(request(token), options())
    expect(again.status).toBe(401)
    expect(problemOf(again).detail).toBe('The service did not confirm this sign-in.')
    expect(sessions).toEqual(['ada@example.com'])
    expect(refusals).toEqual([
      [
        'not-confirmed',
        'service-auth/server refused a sign-in (401, not-confirmed): sign-in of ada@example.com not confirmed by the service (401 Unauthorized: The challenge has been used already.): a token used twice, or a challenge of another key?',
      ],
    ])
  })

  it('answers 423 for a locked identity, consuming nothing; unlocked, the same token signs in', async () => {
    const { id, token } = await signedChallenge(await enrolWithPhone('ada@example.com'))
    await client.identities.update('ada@example.com', { locked: true })
    const answer = await handleControllerRequest(request(token), options())
    expect(answer.status).toBe(423)
    expect(problemOf(answer)).toMatchObject({ status: 423, title: 'Locked' })
    expect(await stateOf(id)).toBe('signed')

    await client.identities.update('ada@example.com', { locked: false })
    expect((await handleControllerRequest(request(token), options())).status).toBe(200)
  })

  it.each(['.', '..'])(
    'answers 401 for the identifier "%s", sends nothing, and leaves the challenge and the identity "authenticate" alone',
    async (identifier) => {
      // Fetch resolves /identities/./authenticate to /identities/authenticate: updating an identity
      // of that name answers 200, which would start a session with nothing confirmed.
      await client.enroll({ identifier: 'authenticate', nickname: 'Untouched' })
      const { id, token } = await signedChallenge(await enrolWithPhone(identifier))
      const before = await service.knobs.requests()
      const answer = await handleControllerRequest(request(token), options())
      expect(answer.status).toBe(401)
      expect(problemOf(answer).detail).toBe('The service did not confirm this sign-in.')
      expect(sessions).toEqual([])
      expect(await stateOf(id)).toBe('signed')
      expect(await service.knobs.requests()).toHaveLength(before.length)
      expect((await client.identities.get('authenticate')).nickname).toBe('Untouched')
    },
  )

  it('answers 401 for an identity deleted after its phone signed', async () => {
    const { id, token } = await signedChallenge(await enrolWithPhone('ada@example.com'))
    await client.identities.delete('ada@example.com')
    expect((await handleControllerRequest(request(token), options())).status).toBe(401)
    expect(sessions).toEqual([])
    expect(await stateOf(id)).toBe('signed')
  })

  it('answers 502 when the service drops the connection, and starts no session', async () => {
    const { id, token } = await signedChallenge(await enrolWithPhone('ada@example.com'))
    await service.knobs.fail({ status: 500, network: true, match: 'authenticate' })
    const answer = await handleControllerRequest(request(token), options())
    expect(answer.status).toBe(502)
    expect(problemOf(answer)).toMatchObject({ status: 502, title: 'Bad Gateway' })
    expect(sessions).toEqual([])
    expect(await stateOf(id)).toBe('signed')
    expect(refusals).toEqual([
      [
        'unreachable',
        `service-auth/server refused a sign-in (502, unreachable): service unreachable (POST ${service.url}/v1/entity/identities/ada%40example.com/authenticate failed.): is SERVICE_URL right, and the service up?`,
      ],
    ])
  })

  it('answers 502 when nothing listens at the service URL', async () => {
    const { token } = await signedChallenge(await enrolWithPhone('ada@example.com'))
    // A client for a port nothing listens on, named as the service names itself in the token's iss.
    const down = {
      ...createClient({ baseUrl: `http://127.0.0.1:${await freePort()}`, key: service.key.key, secret: service.key.secret }),
      baseUrl: service.url,
    }
    expect((await handleControllerRequest(request(token), options({ client: down }))).status).toBe(502)
    expect(refusals.map(([reason]) => reason)).toEqual(['unreachable'])
  })

  it.each([201, 202, 204])('counts only a 200 from authenticate: a %i is a 502, with no session, and the same token signs in after', async (status) => {
    const { id, token } = await signedChallenge(await enrolWithPhone('ada@example.com'))
    await service.knobs.fail({ status, match: 'authenticate', ...(status !== 204 && { body: '{}', contentType: 'application/json' }) })
    const answer = await handleControllerRequest(request(token), options())
    expect(answer.status).toBe(502)
    expect(sessions).toEqual([])
    expect(refusals).toEqual([
      [
        'service-failed',
        `service-auth/server refused a sign-in (502, service-failed): service failed to confirm (${status} Not confirmed: authenticate answered ${status}, and only a 200 confirms.): only a 200 from authenticate confirms; is SERVICE_URL the service's?`,
      ],
    ])
    expect(await stateOf(id)).toBe('signed')
    expect((await handleControllerRequest(request(token), options())).status).toBe(200)
  })

  it("takes the mock's token, whose aud is the key and iss the service's URL, and refuses it to a client set up for another URL of the same service", async () => {
    const { id, token } = await signedChallenge(await enrolWithPhone('ada@example.com'))
    const [, payload] = token.split('.')
    expect(JSON.parse(Buffer.from(payload!, 'base64url').toString())).toMatchObject({ aud: service.key.key, iss: service.url })
    // localhost for 127.0.0.1: the same server, but not the URL the service signs with.
    const localhost = service.url.replace('127.0.0.1', 'localhost')
    const elsewhere = createClient({ baseUrl: localhost, key: service.key.key, secret: service.key.secret })
    const answer = await handleControllerRequest(request(token), options({ client: elsewhere }))
    expect(answer.status).toBe(401)
    expect(refusals).toEqual([
      [
        'issuer',
        `service-auth/server refused a sign-in (401, issuer): token from another service (The token was issued by "${service.url}", not by the service at "${localhost}".): does SERVICE_URL match the page's data-service-api?`,
      ],
    ])
    expect(await stateOf(id)).toBe('signed')
    expect((await handleControllerRequest(request(token), options())).status).toBe(200)
  })

  it('answers 502 when the service fails (a 500 from authenticate)', async () => {
    const { token } = await signedChallenge(await enrolWithPhone('ada@example.com'))
    await service.knobs.fail({ status: 500, match: 'authenticate' })
    expect((await handleControllerRequest(request(token), options())).status).toBe(502)
    // The failure was the service's, not the sign-in's: the same token still works.
    expect((await handleControllerRequest(request(token), options())).status).toBe(200)
  })
})
