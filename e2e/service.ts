// The mock service's knobs and the demo app's controller log, as every runner's tests use them:
// the test, not the clock, decides when a phone signs, a code expires or the service fails. The
// knobs are the published client's (`@service-auth/mock/knobs`); what is added here is the demo
// app's side: its reset, its enrolment, and what its controller received.
import { KnobClient, type LoggedRequest, type RequestKind } from '@service-auth/mock/knobs'
import type { Demo } from 'service-auth-demo'
import { readQrPng } from './qr.js'
import { until, type UntilOptions } from './until.js'

export interface ControllerCall {
  /** Token headers and cookie values as fingerprints (@service-auth/http's fingerprint). */
  headers: Record<string, string | undefined>
  query: string
  valid: boolean
  claims: { jti: string; sub: string; otp: string } | null
  /** What the controller answered. */
  status: number | null
}

export class Service extends KnobClient {
  /** The phone's device per identifier, once provisioned; the service forgets them on each test's reset. */
  readonly #devices = new Map<string, string>()

  constructor(readonly demo: Demo) {
    super(demo.serviceUrl)
  }

  /** Forgets every challenge, rule, hold and device at the service, and every session and controller call at the app. */
  override async reset(): Promise<void> {
    await super.reset()
    await fetch(this.demo.appUrl + '/__app/reset', { method: 'POST' })
    this.#devices.clear()
  }

  /** Status polls received for one challenge, in order. */
  async polls(id?: string): Promise<LoggedRequest[]> {
    return (await this.requests()).filter((r) => r.method === 'GET' && /\/status(\?|$)/.test(r.path) && (!id || r.path.includes(id)))
  }

  async creations(): Promise<LoggedRequest[]> {
    return (await this.requests()).filter((r) => r.method === 'POST' && r.path === '/v1/entity/challenges')
  }

  /**
   * Signs a challenge as the phone would, returning the token the widget will receive. Only a
   * provisioned device may sign, so the identity's phone is set up first when it has none.
   */
  async sign(id: string, identifier = 'user@example.com'): Promise<string> {
    const deviceId = this.#devices.get(identifier) ?? (await this.provisionPhone(identifier))
    return (await this.signChallenge(id, { identifier, deviceId })).token
  }

  /**
   * The real flow: the example app enrolls the identity at the service (a signed server-side
   * call), and the phone scans the enrollment QR code and redeems it. Returns the device id. For
   * an identity enrolled already, the app sends the code to its address (202), and the person
   * who reads that mail scans the code in it.
   */
  async provisionPhone(identifier: string): Promise<string> {
    const res = await fetch(this.demo.appUrl + '/__app/enroll', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ identifier }),
    })
    if (!res.ok) throw new Error(`enrolling ${identifier} answered ${res.status}: ${await res.text()}`)
    const token =
      res.status === 202
        ? await this.mailedEnrollment(identifier)
        : readQrPng(Buffer.from(((await res.json()) as { base64ImageData: string }).base64ImageData, 'base64'))
    const { device } = await this.provisionDevice({ token })
    this.#devices.set(identifier, device.id)
    return device.id
  }

  /** The QR code in the newest enrollment e-mail to `address`, in the service's outbox. */
  async mailedEnrollment(address: string): Promise<string> {
    const message = (await this.outbox()).filter((sent) => sent.to === address).at(-1)
    if (!message) throw new Error(`No e-mail to ${address} in the outbox.`)
    return readQrPng(Buffer.from(message.attachments[0]!.content, 'base64'))
  }

  /** Until one request, of this kind, waits for `release()`. */
  async untilHeld(kind: RequestKind, options?: UntilOptions): Promise<void> {
    await until(
      `one ${kind} request held`,
      async () => {
        const held = await this.held()
        return held.length == 1 && held[0]!.kind == kind
      },
      options,
    )
  }

  async controllerLog(): Promise<ControllerCall[]> {
    return (await fetch(this.demo.appUrl + '/__app/controller-log')).json()
  }
}
