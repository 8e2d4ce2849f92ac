// @vitest-environment node
// A whole sign-in against the mock, as an integrator builds it: the service-auth/server client
// signs the server-side calls, the knobs play the phone, the embed's calls are plain fetches.
import { describe, expect, it } from 'vitest'
import { readQrPng } from '../../src/testing/qr-png.js'
import { createClient, ServiceError, verifyAuthToken } from 'service-auth/server'
import { useService } from './helpers.js'

const service = useService()

describe("the integrator's helper against the mock", () => {
  it('enroll, provision, challenge, sign, poll, verify, authenticate; then the challenge is spent', async () => {
    const client = createClient({ baseUrl: service.url, key: service.key.key, secret: service.key.secret })
    const { enrollment, created } = await client.enroll({ identifier: 'ada@example.com', nickname: 'Ada' })
    expect(created).toBe(true)
    // The phone scans the enrollment code.
    const scanned = readQrPng(Buffer.from(enrollment.base64ImageData, 'base64'))
    expect((await service.knob('devices', { token: scanned, model: 'Pixel 9' })).status).toBe(201)
    expect((await client.identities.get('ada@example.com')).tokens).toHaveLength(1)

    // The embed asks for a challenge and polls; the phone signs it.
    const { id, pollingUrl } = await service.createChallenge()
    await service.knob(`challenges/${id}/sign`, { identifier: 'ada@example.com' })
    const { token } = await (await fetch(pollingUrl)).json()

    // The controller verifies the token and confirms.
    const claims = await verifyAuthToken(token, { secret: service.key.secret })
    expect(claims).toMatchObject({ challengeId: id, identifier: 'ada@example.com' })
    await client.authenticate(claims.identifier, { challenge: claims.challengeId, otp: claims.otp })
    const again = client.authenticate(claims.identifier, { challenge: claims.challengeId, otp: claims.otp })
    await expect(again).rejects.toMatchObject({ status: 401 })
    await expect(again).rejects.toBeInstanceOf(ServiceError)

    await client.identities.delete('ada@example.com')
    await expect(client.identities.get('ada@example.com')).rejects.toMatchObject({ status: 404 })
  })
})
