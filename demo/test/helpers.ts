// A sign-in over plain HTTP, as the embed and the phone make it, for tests of the demo app's
// server side: enrol through the app, set a phone up and sign through the service's knobs.
import { KnobClient } from '@service-auth/mock/knobs'
import type { Demo } from '../harness.js'

/**
 * Makes `identifier` a user of the app with a phone; returns the device id. An identity enrolled
 * already gets its code by e-mail (202), and the phone redeems the code in the newest one.
 */
export async function enrolWithPhone(demo: Demo, identifier: string): Promise<string> {
  const enrolled = await fetch(demo.appUrl + '/__app/enroll', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ identifier }),
  })
  const id = enrolled.status === 202 ? await mailedEnrollmentId(demo, identifier) : ((await enrolled.json()) as { id: string }).id
  const { device } = await new KnobClient(demo.serviceUrl).provisionDevice({ token: id })
  return device.id
}

/** The enrollment of the newest e-mail to `address` in the service's outbox. */
export async function mailedEnrollmentId(demo: Demo, address: string): Promise<string> {
  const messages = await new KnobClient(demo.serviceUrl).outbox()
  return messages.filter((message) => message.to === address).at(-1)!.enrollmentId
}

/** A challenge created from the app's origin and signed by the identifier's phone: the token the embed would receive. */
export async function signedToken(demo: Demo, identifier: string, deviceId: string): Promise<string> {
  const challenge = await fetch(demo.serviceUrl + '/v1/entity/challenges', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: demo.appUrl },
    body: JSON.stringify({ key: demo.apiKey }),
  })
  const { id } = (await challenge.json()) as { id: string }
  return (await new KnobClient(demo.serviceUrl).signChallenge(id, { identifier, deviceId })).token
}

/** Hands the token to the controller as the embed does, with the browser's cookies. */
export function callController(demo: Demo, token: string, cookie?: string, query = ''): Promise<Response> {
  return fetch(demo.appUrl + '/auth/controller' + query, {
    headers: { 'X-Service-Auth': token, 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
  })
}

/** `sid=...` from a response's Set-Cookie, as the browser would send it back. */
export function sessionCookie(res: Response): string {
  return /^(sid=[^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? ''
}
