// @vitest-environment node
// The simulated phone over real HTTP: provisioning redeems an enrollment token once and fills
// Identity.tokens; only a provisioned device of the identity may sign; the token it makes.
import { jwtVerify, decodeProtectedHeader } from 'jose'
import { describe, expect, it } from 'vitest'
import { newKey, problemOf, useService } from './helpers.js'

const otherApp = newKey('other')
const service = useService({}, [{ key: otherApp.key, secret: otherApp.secret }])

async function enrollment(identifier: string) {
  const res = await service.api('POST', '/v1/entity/identities/enroll', { body: { identifier } })
  return (await res.json()) as { id: string; identity: { id: string } }
}
const provision = (body: unknown) => service.knob('devices', body)
const identity = async (identifier: string) => (await service.api('GET', `/v1/entity/identities/${encodeURIComponent(identifier)}`)).json()

describe('provisioning a device', () => {
  it('201 {device, identity}: the QR text redeems the token and the device shows in Identity.tokens', async () => {
    const { id } = await enrollment('ada@example.com')
    const res = await provision({ token: `serviceauth:enroll:${id}`, model: 'Pixel 9', label: "Ada's" })
    expect(res.status).toBe(201)
    const { device } = await res.json()
    expect(device).toEqual({ id: expect.any(String), createdAt: expect.any(String), name: "Pixel 9 Ada's", model: 'Pixel 9', label: "Ada's" })
    expect((await identity('ada@example.com')).tokens).toEqual([device])
  })

  it('takes the bare token id too; the model defaults to "Mock phone" and the name is the model alone', async () => {
    const { id } = await enrollment('ada')
    const { device } = await (await provision({ token: id })).json()
    expect(device).toMatchObject({ model: 'Mock phone', label: '', name: 'Mock phone' })
  })

  it('a token works once: the second redemption is 410', async () => {
    const { id } = await enrollment('ada')
    expect((await provision({ token: id })).status).toBe(201)
    const again = await provision({ token: id })
    expect(again.status).toBe(410)
    expect((await problemOf(again)).detail).toMatch(/redeemed/)
    expect((await identity('ada')).tokens).toHaveLength(1)
  })

  it('an expired token is 410, an unknown one 404, one whose identity was deleted 410', async () => {
    const expired = await enrollment('ada')
    expect((await service.knob(`enrollments/${expired.id}/expire`)).status).toBe(204)
    expect((await provision({ token: expired.id })).status).toBe(410)
    expect((await provision({ token: 'serviceauth:enroll:nope' })).status).toBe(404)
    const orphan = await enrollment('grace')
    await service.api('DELETE', '/v1/entity/identities/grace')
    expect((await provision({ token: orphan.id })).status).toBe(410)
  })

  it('the enrollments knob lists each token with its state', async () => {
    const { id } = await enrollment('ada')
    await provision({ token: id })
    expect(await (await service.knob('enrollments', undefined, 'GET')).json()).toEqual([expect.objectContaining({ id, state: 'redeemed', identifier: 'ada' })])
  })

  it('400 for a missing token or unknown fields, 404 for expiring an unknown enrollment', async () => {
    expect((await provision({})).status).toBe(400)
    expect((await provision({ token: 'x', colour: 'red' })).status).toBe(400)
    expect((await service.knob('enrollments/nope/expire')).status).toBe(404)
  })
})

describe('signing', () => {
  it('only a provisioned device signs: an enrolled identity without one gets 403, an unknown one 404', async () => {
    const { id } = await service.createChallenge()
    await enrollment('ada')
    const denied = await service.knob(`challenges/${id}/sign`, { identifier: 'ada' })
    expect(denied.status).toBe(403)
    expect((await problemOf(denied)).detail).toMatch(/provisioned device/)
    expect((await service.knob(`challenges/${id}/sign`, { identifier: 'nobody' })).status).toBe(404)
    expect((await (await service.knob('challenges', undefined, 'GET')).json())[0].state).toBe('pending')
  })

  it('a device signs for its own identity only; an unknown device is 404; naming nobody is 400', async () => {
    const { id } = await service.createChallenge()
    const adasPhone = await service.provisionPhone('ada')
    await service.provisionPhone('grace')
    expect((await service.knob(`challenges/${id}/sign`, { identifier: 'grace', deviceId: adasPhone })).status).toBe(403)
    expect((await service.knob(`challenges/${id}/sign`, { deviceId: 'nope' })).status).toBe(404)
    expect((await service.knob(`challenges/${id}/sign`, {})).status).toBe(400)
    expect((await service.knob(`challenges/${id}/sign`, { deviceId: adasPhone })).status).toBe(200)
  })

  it("a device of another app cannot sign this app's challenge", async () => {
    const { id } = await service.createChallenge()
    const foreignPhone = await service.provisionPhone('ada', otherApp)
    expect((await service.knob(`challenges/${id}/sign`, { deviceId: foreignPhone })).status).toBe(404)
    expect((await service.knob(`challenges/${id}/sign`, { identifier: 'ada' })).status).toBe(404)
  })

  it('the token is an HS256 JWT under the API secret with jti, sub, otp, role, iat, exp, iss and aud (the key); no sid while sessions are off', async () => {
    const { id } = await service.createChallenge()
    await service.provisionPhone('ada@example.com')
    const token = await service.sign(id, 'ada@example.com')
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' })
    const { payload } = await jwtVerify(token, Buffer.from(service.key.secret, 'base64'), { algorithms: ['HS256'] })
    expect(payload).toEqual({
      jti: id,
      sub: 'ada@example.com',
      otp: expect.stringMatching(/^[\w-]{16,}$/),
      role: 'ROLE_USER',
      iat: expect.any(Number),
      exp: expect.any(Number),
      iss: service.url,
      aud: service.key.key,
    })
    expect(payload.exp! - payload.iat!).toBeGreaterThan(0)
  })

  it('signing again returns the same token; a signed-then-expired or unknown challenge cannot be signed', async () => {
    const { id } = await service.createChallenge()
    await service.provisionPhone('ada')
    const token = await service.sign(id, 'ada')
    expect(await service.sign(id, 'ada')).toBe(token)
    await service.knob(`challenges/${id}/expire`)
    expect((await service.knob(`challenges/${id}/sign`, { identifier: 'ada' })).status).toBe(409)
    expect((await service.knob('challenges/nope/sign', { identifier: 'ada' })).status).toBe(404)
  })
})
