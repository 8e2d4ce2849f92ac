// @vitest-environment node
// Behind a proxy: with a public base URL configured (SERVICE_BASE_URL), every URL the service
// hands out starts with it, the token's iss names it, and signed requests name it, however the
// client spells its base URL.
import { decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'
import { readQrPng } from '../../src/testing/qr-png.js'
import { useService } from './helpers.js'
import { incumbentCreateChallenge, phpClient } from './official-clients.js'

const PUBLIC = 'https://auth.example.test/mock'
const service = useService({ baseUrl: PUBLIC })
// What the integrator configured; the proxy strips /mock and forwards the rest to the service.
const php = (api = PUBLIC) => phpClient({ key: service.key, api, serviceUrl: service.url })

describe('a configured base URL', () => {
  it("names pollingUrl, authImages, authTokenUrl, socketsUrl, the extended QR code and the token's iss", async () => {
    const { json: challenge } = await incumbentCreateChallenge(service.url, { key: service.key.key, origin: 'https://shop.example' })
    const id = encodeURIComponent(challenge.id)
    expect(challenge).toMatchObject({
      pollingUrl: expect.stringMatching(new RegExp(`^${PUBLIC}/v1/entity/challenges/${id}/status\\?secret=[\\w-]+$`)),
      authTokenUrl: expect.stringMatching(new RegExp(`^${PUBLIC}/v1/entity/challenges/${id}/token\\?secret=[\\w-]+$`)),
      socketsUrl: `wss://auth.example.test/mock/v1/entity/challenges/${id}/socket`,
      authImages: {
        'qrcode-standard': `${PUBLIC}/v1/entity/challenges/${id}/images/qrcode-standard`,
        'qrcode-extended': `${PUBLIC}/v1/entity/challenges/${id}/images/qrcode-extended`,
      },
    })
    expect(readQrPng(Buffer.from(challenge.authImagesData['qrcode-extended'], 'base64'))).toBe(`${PUBLIC}/app/challenge/${id}`)

    const enrolled = await php().enrollIdentity('ada@example.com')
    expect(enrolled.status).toBe(201)
    expect((await service.knob('devices', { token: enrolled.json.id })).status).toBe(201)
    expect(decodeJwt(await service.sign(challenge.id, 'ada@example.com')).iss).toBe(PUBLIC)
  })

  it("names the list's page links", async () => {
    await php().enrollIdentity('ada@example.com')
    const list = await php().call('GET', '/v1/entity/identities?limit=10')
    expect(list.headers.link).toBe(
      `<${PUBLIC}/v1/entity/identities?page=1&limit=10>; rel="first", <${PUBLIC}/v1/entity/identities?page=1&limit=10>; rel="last"`,
    )
  })

  it('signed requests name it, with or without a trailing slash; the address listened on is refused', async () => {
    expect((await php().check()).status).toBe(200)
    expect((await php(`${PUBLIC}/`).check()).status).toBe(200)
    const direct = await phpClient({ key: service.key, api: service.url }).check()
    expect(direct.status).toBe(401)
    expect(direct.json.detail).toMatch(/aud/)
  })
})
