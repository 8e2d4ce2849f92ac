// @vitest-environment node
// The browser-facing challenge endpoints over real HTTP: creation as the embed sends it (key,
// origins, CORS), the status long poll and its early answers, and the images.
import { describe, expect, it } from 'vitest'
import { readQrPng } from '../../src/testing/qr-png.js'
import { ErrorCode } from '@service-auth/http'
import { newKey, problemOf, useService } from './helpers.js'

const SHOP = 'https://shop.example'
const shopKey = newKey('shop')
const serverOnly = newKey('server-only')
const service = useService({}, [
  { key: shopKey.key, secret: shopKey.secret, allowedOrigins: [SHOP] },
  { key: serverOnly.key, secret: serverOnly.secret, permissions: ['enroll', 'authenticate'] },
])

const CHALLENGES = '/v1/entity/challenges'
/** What the embed sends: POST JSON {key, returnAuthImageData}, with the page's Origin. */
const create = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(service.url + CHALLENGES, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
/** A status poll as the embed makes it: the pollingUrl it was given. */
const status = (challenge: { pollingUrl: string }) => fetch(challenge.pollingUrl)

describe('create challenge', () => {
  it('201 with the Challenge, no Authorization needed; image URLs only unless returnAuthImageData', async () => {
    const res = await create({ key: service.key.key, returnAuthImageData: false })
    expect(res.status).toBe(201)
    const challenge = await res.json()
    expect(challenge).toEqual({
      id: expect.any(String),
      createdAt: expect.any(String),
      expiresAt: expect.any(String),
      authType: 'web',
      authImages: { 'qrcode-standard': expect.stringContaining(challenge.id), 'qrcode-extended': expect.stringContaining(challenge.id) },
      pollingUrl: expect.stringMatching(new RegExp(`^${service.url}${CHALLENGES}/${challenge.id}/status\\?secret=[\\w-]{43}$`)),
      authTokenUrl: expect.any(String),
      socketsUrl: expect.stringMatching(/^ws:/),
    })
    expect(Date.parse(challenge.expiresAt) - Date.parse(challenge.createdAt)).toBe(120_000)
  })

  it('returnAuthImageData adds the PNGs, whose QR codes name the challenge', async () => {
    const challenge = await (await create({ key: service.key.key, returnAuthImageData: true })).json()
    const standard = Buffer.from(challenge.authImagesData['qrcode-standard'], 'base64')
    expect(readQrPng(standard)).toBe(`serviceauth:challenge:${challenge.id}`)
    expect(Object.keys(challenge.authImagesData)).toEqual(['qrcode-standard', 'qrcode-extended'])
  })

  it('403 for an unknown key and for a key without the challenges permission', async () => {
    for (const key of ['nope', serverOnly.key]) {
      const res = await create({ key })
      expect(res.status).toBe(403)
      expect((await problemOf(res)).title).toBe('Forbidden')
    }
    expect(await (await service.knob('challenges', undefined, 'GET')).json()).toEqual([])
  })

  it("403 for an Origin outside the key's list; its own origin gets the CORS headers", async () => {
    const refused = await create({ key: shopKey.key }, { Origin: 'https://evil.example' })
    expect(refused.status).toBe(403)
    expect((await problemOf(refused)).detail).toContain('https://evil.example')
    const allowed = await create({ key: shopKey.key }, { Origin: SHOP })
    expect(allowed.status).toBe(201)
    expect(allowed.headers.get('access-control-allow-origin')).toBe(SHOP)
    expect(allowed.headers.get('access-control-expose-headers')).toBe('Retry-After')
  })

  it("answers the embed's CORS preflight", async () => {
    const res = await fetch(service.url + CHALLENGES, {
      method: 'OPTIONS',
      headers: { Origin: SHOP, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    })
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP)
    expect(res.headers.get('access-control-allow-methods')).toContain('POST')
    expect(res.headers.get('access-control-allow-headers')).toBe('Content-Type')
  })

  it('400 for an authType other than web or jwt: not a valid choice, with its constant code', async () => {
    const res = await create({ key: service.key.key, authType: 'sms' })
    expect(res.status).toBe(400)
    const [error] = (await problemOf(res)).errors!.authType!
    expect(error).toEqual({ code: ErrorCode.notAValidChoice, message: 'The value you selected is not a valid choice. Choose one of: web, jwt.' })
  })

  it('400 without a key and for malformed JSON, 415 for another content type, 413 for a huge body; nothing created', async () => {
    expect((await problemOf(await create({ returnAuthImageData: true }))).errors).toEqual({ key: [{ code: ErrorCode.isBlank, message: expect.any(String) }] })
    expect((await create('{"key": ')).status).toBe(400)
    expect((await create(JSON.stringify({ key: service.key.key }), { 'Content-Type': 'text/plain' })).status).toBe(415)
    expect((await create({ key: service.key.key, pad: 'x'.repeat(20_000) })).status).toBe(413)
    expect(await (await service.knob('challenges', undefined, 'GET')).json()).toEqual([])
  })
})

describe('status long poll', () => {
  it('holds about one second by default, then 204 with no content', async () => {
    const challenge = await service.createChallenge()
    const started = performance.now()
    const res = await status(challenge)
    const held = performance.now() - started
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
    expect(held).toBeGreaterThan(900)
    expect(held).toBeLessThan(2000)
  })

  it('answers a held poll at once with 200 {token} when the phone signs', async () => {
    await service.knob('config', { holdMs: 60_000 })
    const challenge = await service.createChallenge()
    await service.provisionPhone('ada')
    const held = status(challenge)
    await expect.poll(async () => (await (await service.knob('challenges', undefined, 'GET')).json())[0].polls).toBe(1)
    const token = await service.sign(challenge.id, 'ada')
    const res = await held
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ token })
    // And afterwards without holding.
    expect(await (await status(challenge)).json()).toEqual({ token })
  })

  it('answers a held poll at once with 410 when the challenge expires', async () => {
    await service.knob('config', { holdMs: 60_000 })
    const challenge = await service.createChallenge()
    const held = status(challenge)
    await expect.poll(async () => (await (await service.knob('challenges', undefined, 'GET')).json())[0].polls).toBe(1)
    await service.knob(`challenges/${challenge.id}/expire`)
    const res = await held
    expect(res.status).toBe(410)
    expect((await problemOf(res)).title).toBe('Gone')
  })

  it('expires by itself when its lifetime runs out, answering the held poll', async () => {
    await service.knob('config', { holdMs: 60_000, challengeTtlMs: 50 })
    expect((await status(await service.createChallenge())).status).toBe(410)
  })

  it('404 for an unknown challenge, and it is browser-facing: CORS headers, no signature', async () => {
    const res = await fetch(`${service.url}${CHALLENGES}/nope/status`, { headers: { Origin: SHOP } })
    expect(res.status).toBe(404)
    expect(res.headers.get('access-control-allow-origin')).toBe(SHOP)
  })
})

describe('only the browser that created a challenge reads its status', () => {
  // Whoever sees the QR code (over a shoulder, on a shared screen) knows the challenge's id.
  const byIdAlone = (id: string, endpoint: string, query = '') => fetch(`${service.url}${CHALLENGES}/${id}/${endpoint}${query}`, { headers: { Origin: SHOP } })

  it('its pollingUrl and authTokenUrl carry a secret that neither QR code holds', async () => {
    const challenge = await (await create({ key: service.key.key, returnAuthImageData: true })).json()
    const secret = new URL(challenge.pollingUrl).searchParams.get('secret')!
    expect(secret).toMatch(/^[\w-]{43}$/)
    expect(new URL(challenge.authTokenUrl).searchParams.get('secret')).toBe(secret)
    for (const kind of ['qrcode-standard', 'qrcode-extended']) {
      const inline = readQrPng(Buffer.from(challenge.authImagesData[kind], 'base64'))
      const byUrl = readQrPng(Buffer.from(await (await fetch(challenge.authImages[kind])).arrayBuffer()))
      expect(inline).toContain(challenge.id)
      expect(inline).not.toContain(secret)
      expect(byUrl).toBe(inline)
    }
    const other = await service.createChallenge()
    expect(new URL(other.pollingUrl).searchParams.get('secret')).not.toBe(secret)
  })

  it("without the secret, or with a wrong one, a signed challenge's status and token are 403 problem JSON, readable by the page; nothing changes", async () => {
    const challenge = await service.createChallenge()
    const other = await service.createChallenge()
    await service.provisionPhone('ada')
    const token = await service.sign(challenge.id, 'ada')
    const secret = new URL(challenge.pollingUrl).searchParams.get('secret')!
    const wrong = [
      '',
      '?secret=',
      `?secret=${secret.slice(0, -1)}`,
      `?secret=${secret}x`,
      `?Secret=${secret}`,
      other.pollingUrl.slice(other.pollingUrl.indexOf('?')),
    ]
    for (const endpoint of ['status', 'token']) {
      for (const query of wrong) {
        const res = await byIdAlone(challenge.id, endpoint, query)
        expect(res.status, `${endpoint}${query}`).toBe(403)
        expect(res.headers.get('access-control-allow-origin')).toBe(SHOP)
        const problem = await problemOf(res)
        expect(problem.detail).toContain('pollingUrl')
        expect(JSON.stringify(problem)).not.toContain(token)
      }
    }
    // The creator still gets the token, and the challenge is still there to be confirmed.
    expect(await (await status(challenge)).json()).toEqual({ token })
    expect(await (await fetch(challenge.authTokenUrl)).json()).toEqual({ token })
    expect((await (await service.knob('challenges', undefined, 'GET')).json())[0]).toMatchObject({ id: challenge.id, state: 'signed' })
  })

  it('an unknown challenge is 404 with or without a secret', async () => {
    const { pollingUrl } = await service.createChallenge()
    expect((await byIdAlone('nope', 'status', pollingUrl.slice(pollingUrl.indexOf('?')))).status).toBe(404)
    expect((await byIdAlone('nope', 'token')).status).toBe(404)
  })
})

describe('authTokenUrl', () => {
  it('answers at once: 204 while pending, 200 {token} once signed, 410 once used, 404 unknown', async () => {
    const challenge = await (await create({ key: service.key.key })).json()
    expect(challenge.authTokenUrl).toBe(challenge.pollingUrl.replace('/status?', '/token?'))
    expect((await fetch(challenge.authTokenUrl)).status).toBe(204)
    await service.provisionPhone('ada')
    const token = await service.sign(challenge.id, 'ada')
    expect(await (await fetch(challenge.authTokenUrl)).json()).toEqual({ token })
    await service.knob(`challenges/${challenge.id}/consume`)
    expect((await fetch(challenge.authTokenUrl)).status).toBe(410)
    expect((await fetch(`${service.url}${CHALLENGES}/nope/token`)).status).toBe(404)
  })
})

describe('images', () => {
  it('serves each kind as a PNG; 404 for an unknown kind or challenge', async () => {
    const { id } = await service.createChallenge()
    const png = await fetch(`${service.url}${CHALLENGES}/${id}/images/qrcode-extended`)
    expect(png.headers.get('content-type')).toBe('image/png')
    expect(readQrPng(Buffer.from(await png.arrayBuffer()))).toBe(`${service.url}/app/challenge/${id}`)
    expect((await fetch(`${service.url}${CHALLENGES}/${id}/images/qrcode-huge`)).status).toBe(404)
    expect((await fetch(`${service.url}${CHALLENGES}/nope/images/qrcode-standard`)).status).toBe(404)
  })
})
