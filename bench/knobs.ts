// The bench's hands on the mock service: its knob endpoints (sign, expire, config), a phone
// provisioned the real way, and challenges created from Node. The same calls the e2e tests make
// (e2e/fixtures.ts), without Playwright's test runner.

export interface Settings {
  holdMs?: number
  challengeTtlMs?: number
  rateLimit?: number
  browserRateLimit?: number
}

export class Knobs {
  #deviceId: string | undefined

  constructor(
    readonly serviceUrl: string,
    readonly appUrl: string,
    readonly apiKey: string,
    /** Who signs in: a user of the app, with a phone provisioned on first use. */
    readonly identifier = 'bench@example.com',
  ) {}

  async knob(path: string, body?: unknown): Promise<Response> {
    const res = await fetch(`${this.serviceUrl}/__knobs/${path}`, {
      method: 'POST',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    if (!res.ok) throw new Error(`knob ${path} answered ${res.status}: ${await res.text()}`)
    return res
  }

  config(settings: Settings): Promise<Response> {
    return this.knob('config', settings)
  }

  expire(challengeId: string): Promise<Response> {
    return this.knob(`challenges/${encodeURIComponent(challengeId)}/expire`)
  }

  /** Signs as the phone would. The device is provisioned once, before any timing starts. */
  async sign(challengeId: string): Promise<void> {
    const deviceId = this.#deviceId ?? (await this.provisionPhone())
    await (await this.knob(`challenges/${encodeURIComponent(challengeId)}/sign`, { identifier: this.identifier, deviceId })).arrayBuffer()
  }

  /**
   * The app enrolls the identity at the service (a signed server-side call) and makes it one of
   * its users; the phone redeems the enrollment, by its id, which the knob takes as well as the QR text.
   */
  async provisionPhone(): Promise<string> {
    const res = await fetch(`${this.appUrl}/__app/enroll`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ identifier: this.identifier }),
    })
    if (!res.ok) throw new Error(`enrolling ${this.identifier} answered ${res.status}: ${await res.text()}`)
    const { id } = (await res.json()) as { id: string }
    const { device } = (await (await this.knob('devices', { token: id })).json()) as { device: { id: string } }
    return (this.#deviceId = device.id)
  }

  /** A challenge created from Node (no Origin header, which the service accepts), for its URLs. */
  async createChallenge(): Promise<{ id: string; pollingUrl: string; authTokenUrl: string }> {
    const res = await fetch(`${this.serviceUrl}/v1/entity/challenges`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ key: this.apiKey }),
    })
    if (res.status !== 201) throw new Error(`creating a challenge answered ${res.status}: ${await res.text()}`)
    return (await res.json()) as { id: string; pollingUrl: string; authTokenUrl: string }
  }
}
