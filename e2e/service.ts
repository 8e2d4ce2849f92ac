// The mock service's knobs and the demo app's controller log, as every runner's tests use them:
// the test, not the clock, decides when a phone signs, a code expires or the service fails.
import type { Demo } from '../demo/harness.js'
import type { ChallengeState } from '../packages/mock/src/service/challenges/challenge-store.js'
import type { RequestKind, RuleMatch } from '../packages/mock/src/service/knobs/fault-rules.js'
import type { HeldRequest } from '../packages/mock/src/service/knobs/holds.js'
import type { LoggedRequest } from '../packages/mock/src/service/knobs/request-log.js'
import { readQrPng } from './qr.js'
import { until, type UntilOptions } from './until.js'

/** What GET /__knobs/challenges lists. */
export interface ChallengeInfo {
  id: string
  state: ChallengeState
  polls: number
}

export interface ControllerCall {
  /** Token headers and cookie values as fingerprints (demo/common/fingerprint.ts). */
  headers: Record<string, string | undefined>
  query: string
  valid: boolean
  claims: { jti: string; sub: string; otp: string } | null
  /** What the controller answered. */
  status: number | null
}

export class Service {
  /** The phone's device per identifier, once provisioned; the service forgets them on each test's reset. */
  readonly #devices = new Map<string, string>()

  constructor(readonly demo: Demo) {}

  async knob(path: string, body?: unknown, method = 'POST'): Promise<Response> {
    const res = await fetch(this.demo.serviceUrl + '/__knobs/' + path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`knob ${path} answered ${res.status}: ${await res.text()}`)
    return res
  }

  /** Forgets every challenge, rule, hold and device at the service, and every session and controller call at the app. */
  async reset(): Promise<void> {
    await this.knob('reset')
    await fetch(this.demo.appUrl + '/__app/reset', { method: 'POST' })
    this.#devices.clear()
  }

  async challenges(): Promise<ChallengeInfo[]> {
    return (await this.knob('challenges', undefined, 'GET')).json()
  }

  async requests(): Promise<LoggedRequest[]> {
    return (await this.knob('requests', undefined, 'GET')).json()
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
    return ((await (await this.knob(`challenges/${id}/sign`, { identifier, deviceId })).json()) as { token: string }).token
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
    const { device } = (await (await this.knob('devices', { token })).json()) as { device: { id: string } }
    this.#devices.set(identifier, device.id)
    return device.id
  }

  /** The QR code in the newest enrollment e-mail to `address`, in the service's outbox. */
  async mailedEnrollment(address: string): Promise<string> {
    const messages = (await (await this.knob('outbox', undefined, 'GET')).json()) as { to: string; attachments: { content: string }[] }[]
    const message = messages.filter((sent) => sent.to === address).at(-1)
    if (!message) throw new Error(`No e-mail to ${address} in the outbox.`)
    return readQrPng(Buffer.from(message.attachments[0]!.content, 'base64'))
  }

  expire(id: string) {
    return this.knob(`challenges/${id}/expire`)
  }

  fail(rule: {
    status?: number
    count?: number
    match?: 'create' | 'status' | 'any'
    retryAfter?: string
    body?: string
    contentType?: string
    network?: boolean
  }) {
    return this.knob('fail', rule)
  }

  /** The failures still queued go unused: an outage ends when the test says. */
  endFailures() {
    return this.knob('fail', undefined, 'DELETE')
  }

  /** The next `count` requests that `match` wait at the service until `release()`, however long the test takes. */
  hold(rule: { match?: RuleMatch; count?: number } = {}) {
    return this.knob('hold', rule)
  }

  /** The requests waiting for `release()`, oldest first. */
  async held(): Promise<HeldRequest[]> {
    return (await this.knob('hold', undefined, 'GET')).json()
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

  release() {
    return this.knob('release')
  }

  config(settings: { holdMs?: number; challengeTtlMs?: number }) {
    return this.knob('config', settings)
  }

  async controllerLog(): Promise<ControllerCall[]> {
    return (await fetch(this.demo.appUrl + '/__app/controller-log')).json()
  }
}
