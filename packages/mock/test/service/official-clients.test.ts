// @vitest-environment node
// The mock serves the service's real clients unchanged: the requests of the PHP client 1.0.5, the
// Node client and the incumbent embed, byte for byte (official-clients.ts), get the answers in
// the shapes those clients parse. One describe per point of what the clients do.
import { decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import { ErrorCode } from '@service-auth/http'
import { signRequest, useService } from './helpers.js'
import { incumbentCreateChallenge, nodeClient, phpClient, send } from './official-clients.js'

const service = useService()
const ORIGIN = 'https://integrator.example'
const php = () => phpClient({ key: service.key, api: service.url })
const node = () => nodeClient({ key: service.key, api: service.url })

/** What PHP's Identity::fromArray reads, and Token::fromArray and Session::fromArray under it. */
const IDENTITY_FIELDS = ['id', 'createdAt', 'locked', 'identifier', 'nickname', 'label', 'role', 'tokens', 'sessions']

async function enrollWithPhone(identifier: string): Promise<string> {
  const enrolled = await php().enrollIdentity(identifier)
  expect(enrolled.status).toBe(201)
  const provisioned = await service.knob('devices', { token: enrolled.json.id, model: 'Pixel 9', label: 'Work' })
  return (await provisioned.json()).device.id
}

/** The browser's part as the incumbent embed does it, and the phone's; the token the controller gets. */
async function signedToken(identifier: string): Promise<string> {
  const created = await incumbentCreateChallenge(service.url, { key: service.key.key, origin: ORIGIN })
  expect(created.status).toBe(201)
  await service.sign(created.json.id, identifier)
  const polled = await fetch(created.json.pollingUrl, { headers: { Origin: ORIGIN } })
  return (await polled.json()).token
}

const claimsOf = (token: string) => decodeJwt(token) as { jti: string; sub: string; otp: string; role: string; sid?: string }

describe('1. challenge creation as the incumbent embed sends it', () => {
  it('{key, authType: "jwt", returnAuthImageData: true} from a page: 201 with the images inline, readable cross-origin', async () => {
    const res = await incumbentCreateChallenge(service.url, { key: service.key.key, origin: ORIGIN })
    expect(res.status).toBe(201)
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN)
    expect(res.json).toMatchObject({ id: expect.any(String), authType: 'jwt', pollingUrl: expect.stringContaining(res.json.id) })
    expect(Object.keys(res.json.authImagesData)).toEqual(['qrcode-standard', 'qrcode-extended'])
  })

  it('"web" is taken too; any other value is the spec\'s 400 with the not-a-valid-choice error', async () => {
    const web = await incumbentCreateChallenge(service.url, { key: service.key.key, origin: ORIGIN, authType: 'web' })
    expect(web.status).toBe(201)
    expect(web.json.authType).toBe('web')
    const other = await incumbentCreateChallenge(service.url, { key: service.key.key, origin: ORIGIN, authType: 'oauth' })
    expect(other.status).toBe(400)
    expect(other.headers['content-type']).toBe('application/problem+json')
    expect(other.json.errors).toEqual({ authType: [{ code: ErrorCode.notAValidChoice, message: expect.stringContaining('web, jwt') }] })
  })
})

describe("2. enroll with the clients' defaults", () => {
  it('PHP\'s defaults (nickname null, sendEmail false, sendEmailTo "", en_US, ROLE_USER, 3600 s) enroll, and send no e-mail', async () => {
    const res = await php().enrollIdentity('ada@example.com')
    expect(res.status).toBe(201)
    expect(res.json.identity).toMatchObject({ identifier: 'ada@example.com', role: 'ROLE_USER', nickname: null })
    expect((Date.parse(res.json.expiresAt) - Date.parse(res.json.createdAt)) / 1000).toBe(3600)
    expect(await (await service.knob('outbox', undefined, 'GET')).json()).toEqual([])
  })

  it("the Node client's defaults enroll; enrolling again with the defaults keeps the nickname", async () => {
    expect((await php().enrollIdentity('u-7', { nickname: 'Ada' })).json.identity.nickname).toBe('Ada')
    const again = await node().enrollIdentity('u-7')
    expect(again.status).toBe(200)
    expect(again.json.identity).toMatchObject({ nickname: 'Ada', label: 'Ada' })
    // .NET sends nickname "" because it cannot send null: not given either.
    expect((await php().enrollIdentity('u-7', { nickname: '' })).json.identity.nickname).toBe('Ada')
  })

  it('an empty sendEmailTo means "not given": sendEmail goes to the identifier; en_US and de-DE pick the language', async () => {
    await php().enrollIdentity('ada@example.com', { sendEmail: true, sendEmailLocale: 'de-DE' })
    await php().enrollIdentity('grace@example.com', { sendEmail: true, sendEmailLocale: 'en_US' })
    const mails = await (await service.knob('outbox', undefined, 'GET')).json()
    expect(mails.map((mail: { to: string; locale: string }) => [mail.to, mail.locale])).toEqual([
      ['ada@example.com', 'de'],
      ['grace@example.com', 'en'],
    ])
  })

  it("enrollmentType is one of the two kinds; sendEmailTimeZone gives the e-mail's expiry in that zone", async () => {
    expect((await php().enrollIdentity('a@example.com', { enrollmentType: 'TWO_STEP_ENROLLMENT' })).status).toBe(201)
    const typo = await php().enrollIdentity('b@example.com', { enrollmentType: 'ONE_STEP' })
    expect(typo.status).toBe(400)
    expect(Object.keys(typo.json.errors)).toEqual(['enrollmentType'])

    const res = await php().enrollIdentity('c@example.com', { sendEmail: true, sendEmailTimeZone: 'Asia/Kolkata', timeout: 60 })
    const [mail] = await (await service.knob('outbox', undefined, 'GET')).json()
    const expiry = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Asia/Kolkata' }).format(new Date(res.json.expiresAt))
    expect(mail.text).toContain(`${expiry} (Asia/Kolkata)`)
    const zone = await php().enrollIdentity('d@example.com', { sendEmailTimeZone: 'Mars/Olympus_Mons' })
    expect(zone.status).toBe(400)
    expect(zone.json.errors.sendEmailTimeZone[0].code).toBe(ErrorCode.invalidTimeZone)
  })

  it('unknown fields are accepted and ignored', async () => {
    const res = await php().enrollIdentity('ada@example.com', { sendEmailTimeZone: 'Europe/Berlin', referrer: 'wordpress' })
    expect(res.status).toBe(201)
  })
})

describe('3. list identities', () => {
  it('PHP reads a bare array of Identity from GET without a query; Node asks for ?limit=500', async () => {
    await php().enrollIdentity('ada@example.com')
    await php().enrollIdentity('grace@example.com')
    const list = await php().getIdentities()
    expect(list.status).toBe(200)
    expect(list.json.map((identity: { identifier: string }) => identity.identifier)).toEqual(['ada@example.com', 'grace@example.com'])
    for (const identity of list.json) expect(Object.keys(identity)).toEqual(IDENTITY_FIELDS)
    const limited = await node().listIdentities()
    expect(limited.status).toBe(200)
    expect(limited.json).toEqual(list.json)
    expect(limited.headers['x-total-count']).toBe('2')
  })
})

describe('identifiers in paths, as each client writes them', () => {
  it('PHP writes a space as +: "John Doe" is read, renamed, confirmed and deleted', async () => {
    await enrollWithPhone('John Doe')
    expect((await php().getIdentity('John Doe')).json.identifier).toBe('John Doe')
    expect((await php().renameIdentity('John Doe', 'John Q Doe')).status).toBe(200)
    expect((await php().authenticate(claimsOf(await signedToken('John Q Doe')))).json.identifier).toBe('John Q Doe')
    expect((await php().deleteIdentity('John Q Doe')).status).toBe(204)
  })

  it('Node writes the identifier as it is: a real + stays a +', async () => {
    await enrollWithPhone('ada+shop@example.com')
    await php().enrollIdentity('ada shop@example.com')
    const res = await node().authenticate(claimsOf(await signedToken('ada+shop@example.com')))
    expect(res.status).toBe(200)
    expect(res.json.identifier).toBe('ada+shop@example.com')
  })
})

describe('dot segments: "." and ".." are data when percent-encoded, and never another resource', () => {
  /** A request signed for exactly the target it is sent to, as a raw client (no URL parser) sends it. */
  const raw = async (method: string, target: string, body: unknown) => {
    const text = JSON.stringify(body)
    const token = await signRequest({ key: service.key, method, url: service.url + target, body: text, aud: service.url })
    return send({ method, serviceUrl: service.url, target, headers: { Authorization: token, 'Content-Type': 'application/json' }, body: text })
  }

  it.each([
    ['.', '%2E'],
    ['..', '%2E%2E'],
    ['..', '%2e.'],
  ])('"%s" written as %s is read, confirmed and deleted as that identity', async (identifier, written) => {
    await enrollWithPhone(identifier)
    expect((await raw('GET', `/v1/entity/identities/${written}`, undefined)).json.identifier).toBe(identifier)
    const { jti, otp } = claimsOf(await signedToken(identifier))
    const confirmed = await raw('POST', `/v1/entity/identities/${written}/authenticate`, { challenge: jti, otp })
    expect(confirmed.status).toBe(200)
    expect(confirmed.json.identifier).toBe(identifier)
    expect((await raw('DELETE', `/v1/entity/identities/${written}`, undefined)).status).toBe(204)
  })

  it('PHP\'s urlencode and the Node client leave "." as it is: a 400, and the identity "authenticate" is not updated instead', async () => {
    await php().enrollIdentity('authenticate', { nickname: 'Untouched' })
    await enrollWithPhone('.')
    const claims = claimsOf(await signedToken('.'))
    for (const res of [await php().authenticate(claims), await node().authenticate(claims), await php().getIdentity('..')]) {
      expect(res.status).toBe(400)
      expect(res.json.detail).toBe('The path has a "." or ".." segment: percent-encode it (%2E) to mean it as data.')
    }
    expect((await php().getIdentity('authenticate')).json.nickname).toBe('Untouched')
    const [challenge] = await (await service.knob('challenges', undefined, 'GET')).json()
    expect(challenge).toMatchObject({ id: claims.jti, state: 'signed' })
  })

  it('a token signed for /identities/authenticate does not pass for /identities/%2E/authenticate', async () => {
    await php().enrollIdentity('authenticate', { nickname: 'Untouched' })
    const body = JSON.stringify({ nickname: 'Changed' })
    const token = await signRequest({ key: service.key, method: 'POST', url: service.url + '/v1/entity/identities/authenticate', body, aud: service.url })
    const res = await send({
      method: 'POST',
      serviceUrl: service.url,
      target: '/v1/entity/identities/%2E',
      headers: { Authorization: token, 'Content-Type': 'application/json' },
      body,
    })
    expect(res.status).toBe(401)
    expect((await php().getIdentity('authenticate')).json.nickname).toBe('Untouched')
  })
})

describe('4. rename', () => {
  it('PATCH .../rename {identifier}: 200, and the identity answers under its new identifier', async () => {
    const { json: enrolled } = await php().enrollIdentity('ada@example.com')
    const res = await php().renameIdentity('ada@example.com', 'ada@new.example')
    expect(res.status).toBe(200)
    expect((await php().getIdentity('ada@new.example')).json).toMatchObject({ id: enrolled.identity.id, identifier: 'ada@new.example' })
    expect((await php().getIdentity('ada@example.com')).status).toBe(404)
  })
})

describe('5. and 6. the authenticate answer and the Identity shape', () => {
  it('PHP parses the 200 body as an Identity: its fields at the top level, plus session (null while sessions are off)', async () => {
    await enrollWithPhone('ada@example.com')
    const claims = claimsOf(await signedToken('ada@example.com'))
    const res = await php().authenticate(claims)
    expect(res.status).toBe(200)
    expect(Object.keys(res.json)).toEqual([...IDENTITY_FIELDS, 'session'])
    expect(res.json).toMatchObject({ identifier: 'ada@example.com', role: 'ROLE_USER', session: null, sessions: [] })
    // The Node client reads only the status; a second confirmation is refused.
    expect((await node().authenticate(claims)).status).toBe(401)
  })

  it("every identity has a sessions array: retrieve, list and enroll's identity", async () => {
    const enrolled = await php().enrollIdentity('ada@example.com')
    expect(enrolled.json.identity.sessions).toEqual([])
    expect((await php().getIdentity('ada@example.com')).json.sessions).toEqual([])
    expect((await php().getIdentities()).json[0].sessions).toEqual([])
  })
})

describe('7. the endpoints the spec does not show', () => {
  it('check: {message: "ping"} answers {message: "pong"}; a bad signature is 401 problem JSON', async () => {
    for (const client of [php(), node()]) {
      const res = await client.check()
      expect(res.status).toBe(200)
      expect(res.json).toEqual({ message: 'pong' })
    }
    const wrong = await phpClient({ key: { key: service.key.key, secret: Buffer.alloc(32, 1).toString('base64') }, api: service.url }).check()
    expect(wrong.status).toBe(401)
    expect(wrong.headers['content-type']).toBe('application/problem+json')
  })

  it('configuration: read, changed by PHP (only what it names) and by Node (all three, null for none)', async () => {
    const initial = await php().getConfiguration()
    expect(initial.json).toEqual({ websiteUrl: null, authenticationUrl: null, registrationUrl: null, sessionsEnabled: false, supportSessions: false })
    const changed = await php().setConfiguration({ authenticationUrl: `${ORIGIN}/auth/controller`, registrationUrl: `${ORIGIN}/register` })
    expect(changed.status).toBe(200)
    expect(changed.json).toMatchObject({ authenticationUrl: `${ORIGIN}/auth/controller`, registrationUrl: `${ORIGIN}/register` })
    const fromNode = await node().setConfiguration({ websiteUrl: ORIGIN, supportSessions: true })
    expect(fromNode.json).toEqual({
      websiteUrl: ORIGIN,
      authenticationUrl: null,
      registrationUrl: `${ORIGIN}/register`,
      sessionsEnabled: true,
      supportSessions: true,
    })
    expect((await php().getConfiguration()).json).toEqual(fromNode.json)
  })

  it('configuration: bad values are a 400 naming each field, and change nothing', async () => {
    await php().setConfiguration({ websiteUrl: ORIGIN })
    const res = await php().setConfiguration({ websiteUrl: 'javascript:alert(1)', sessionsEnabled: true, supportSessions: false, authenticationUrl: 7 })
    expect(res.status).toBe(400)
    expect(Object.keys(res.json.errors).sort()).toEqual(['authenticationUrl', 'supportSessions', 'websiteUrl'])
    expect((await php().getConfiguration()).json).toMatchObject({ websiteUrl: ORIGIN, sessionsEnabled: false })
  })

  it('DELETE /v1/entity/tokens/{id}: 204, the device leaves its identity; 404 for an unknown one', async () => {
    const deviceId = await enrollWithPhone('ada@example.com')
    const res = await php().deleteToken(deviceId)
    expect(res.status).toBe(204)
    expect((await php().getIdentity('ada@example.com')).json.tokens).toEqual([])
    const again = await php().deleteToken(deviceId)
    expect(again.status).toBe(404)
    expect(again.headers['content-type']).toBe('application/problem+json')
  })

  it('sessions: a confirmed sign-in starts one; list, read, report times, log out', async () => {
    await php().setConfiguration({ sessionsEnabled: true })
    await enrollWithPhone('ada@example.com')
    const confirmed = await php().authenticate(claimsOf(await signedToken('ada@example.com')))
    const session = confirmed.json.session
    expect(session).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      expiresAt: expect.any(String),
      identifier: 'ada@example.com',
      deviceLabel: 'Pixel 9 Work',
      client: { ip: '127.0.0.1', label: 'Chrome on Linux', browser: 'Chrome', platform: 'Linux', location: null },
      token: expect.objectContaining({ model: 'Pixel 9', label: 'Work', name: 'Pixel 9 Work' }),
    })
    expect(confirmed.json.sessions).toEqual([session])
    expect((await php().getSessions()).json).toEqual({ items: [session] })
    expect((await php().getSession(session.id)).json).toEqual(session)

    const expiresAt = '2099-01-01T00:00:00+00:00'
    const updated = await php().updateSessions([
      { id: session.id, updatedAt: '2026-01-01T12:00:00+01:00', expiresAt },
      { id: 'gone', updatedAt: null, expiresAt: null },
    ])
    expect(updated.status).toBe(200)
    expect(updated.json.items).toEqual([{ ...session, updatedAt: '2026-01-01T11:00:00.000+00:00', expiresAt: '2099-01-01T00:00:00.000+00:00' }])

    // PHP's updateSessions([]) sends an empty body: the list as it is.
    expect((await php().updateSessions([])).json.items).toHaveLength(1)

    expect((await php().logoutSession(session.id)).status).toBe(204)
    expect((await php().getSession(session.id)).status).toBe(404)
    expect((await php().getSessions()).json).toEqual({ items: [] })
    expect((await php().getIdentity('ada@example.com')).json.sessions).toEqual([])
  })
})

describe('8. token claims', () => {
  it('role always; sid only with sessions on, naming the session the confirmation starts', async () => {
    await enrollWithPhone('ada@example.com')
    const off = claimsOf(await signedToken('ada@example.com'))
    expect(off).toMatchObject({ sub: 'ada@example.com', role: 'ROLE_USER' })
    expect(off.sid).toBeUndefined()

    await php().setConfiguration({ sessionsEnabled: true })
    const on = claimsOf(await signedToken('ada@example.com'))
    expect(on.sid).toMatch(/^[0-9a-f-]{36}$/)
    expect((await php().authenticate(on)).json.session.id).toBe(on.sid)
  })
})

describe('9. a base URL with a trailing slash', () => {
  it('requests and signs //v1/...: the same resources, the signed url checked the same way', async () => {
    const slashed = phpClient({ key: service.key, api: `${service.url}/` })
    expect((await slashed.check()).json).toEqual({ message: 'pong' })
    expect((await slashed.enrollIdentity('ada@example.com')).status).toBe(201)
    expect((await slashed.getIdentity('ada@example.com')).json.identifier).toBe('ada@example.com')
    // Folding the slashes does not make a token signed for one path good for another.
    expect((await slashed.call('GET', '/v1/entity/identities')).status).toBe(200)
    const signedForList = await signRequest({ key: service.key, method: 'GET', url: `${service.url}//v1/entity/identities`, aud: `${service.url}/` })
    expect((await service.api('GET', '//v1/entity/identities', { authorization: `Bearer ${signedForList}` })).status).toBe(200)
    expect((await service.api('GET', '/v1/entity/configuration', { authorization: `Bearer ${signedForList}` })).status).toBe(401)
  })
})
