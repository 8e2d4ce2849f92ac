// The mock's side of the check, through the controller's own API key: challenges to sign, phones
// to sign them with, the confirmations the controller sent (the request log), and the failures
// and holds that stand for a service refusing, failing or not answering. Everything the check
// asks of the mock, and whatever makes the check unable to run (no mock, no knobs, a wrong key),
// is here.
import { randomBytes } from 'node:crypto'
import { createClient, ServiceError, type Client } from 'service-auth/server'
import { fingerprint } from '@service-auth/http'
import type { MockServiceControls } from '../controls.js'
import { ControllerCheckError, TestKitError } from '../errors.js'
import { KnobClient } from '../knob-client.js'
import type { OptionNames } from './check-controller.js'
import { describeProblem, readProblem } from '../problem-detail.js'
import { connectMockService } from '../mock-service.js'
import { MOCK_ANSWER_TIMEOUT_MS, noAnswer } from '../unreached.js'

/** A confirmation the controller sent for a challenge, as the mock logged it. */
export interface Confirmation {
  /** Its path, `/v1/entity/identities/…/authenticate`. */
  path: string
  /** Whether its `otp` was the token's (the log keeps it only as a fingerprint). */
  otpMatches: boolean
  /** When it reached the mock, epoch ms. */
  at: number
}

// How often the check looks for a held request: the mock offers no event for it.
const HELD_POLL_MS = 25

export class MockSide {
  readonly #knobs: KnobClient
  readonly #controls: MockServiceControls
  readonly #client: Client

  private constructor(
    readonly url: string,
    readonly key: string,
    secret: string,
  ) {
    this.#knobs = new KnobClient(url)
    this.#controls = connectMockService({ url, key, secret })
    this.#client = createClient({ baseUrl: url, key, secret })
  }

  /** The mock at `url`, checked: reachable, with its knobs, and taking the key with its secret. */
  static async connect(url: string, key: string, secret: string, names: Pick<OptionNames, 'key' | 'secret'>): Promise<MockSide> {
    let mock: MockSide
    try {
      mock = new MockSide(url.replace(/\/+$/, ''), key, secret)
    } catch (error) {
      // createClient names the option at fault as checkController does (`secret (the API
      // secret) decodes to 6 bytes…`, `key must be…`): the command's flag is put in front.
      const message = (error as Error).message
      const option = /^(key|secret)\b/.exec(message)?.[1] as 'key' | 'secret' | undefined
      throw new ControllerCheckError(option && names[option] !== option ? `${names[option]}: ${message}` : message)
    }
    // A mock started without them says so (KnobClient names it, and how to start it with them).
    await mock.#knobs.settings().catch(asCheckError)
    try {
      await mock.#client.check()
    } catch (error) {
      const why = error instanceof ServiceError ? `${error.status}: ${error.detail ?? error.title}` : (error as Error).message
      throw new ControllerCheckError(
        `the mock service at ${mock.url} refused the key ${key} with its secret (${why}): are ${names.key} and ${names.secret} the controller's?`,
      )
    }
    return mock
  }

  /** The identity, enrolled with a phone of its own unless it has one. */
  async ensurePhone(identifier: string): Promise<void> {
    const identity = await this.#client.identities.get(identifier).catch((error) => {
      if (error instanceof ServiceError && error.status === 404) return undefined
      throw error
    })
    if (!identity?.tokens.length) await this.#controls.enrolPhone(identifier).catch(asCheckError)
  }

  /** A new identity with a phone, whom no user store knows: the check's stranger. */
  async newStranger(): Promise<string> {
    const stranger = `check-stranger-${randomBytes(6).toString('hex')}@example.invalid`
    await this.#controls.enrolPhone(stranger).catch(asCheckError)
    return stranger
  }

  /** Deletes an identity the check made; one already gone is fine. */
  async forget(identifier: string): Promise<void> {
    await this.#client.identities.delete(identifier).catch(() => undefined)
  }

  /** A challenge of the key, as the embed creates one; its id. */
  async createChallenge(): Promise<string> {
    const res = await this.#fetch('/v1/entity/challenges', 'POST', { key: this.key, returnAuthImageData: false })
    if (res.status !== 201)
      throw new ControllerCheckError(`the mock service refused a challenge for ${this.key} (${res.status}: ${describeProblem(readProblem(await res.text()))})`)
    return ((await res.json()) as { id: string }).id
  }

  /** The identity's phone signs the challenge; the token the embed would hand to the controller. */
  async sign(challengeId: string, identifier: string): Promise<string> {
    return (await this.#knobs.signChallenge(challengeId, { identifier, key: this.key }).catch(asCheckError)).token
  }

  /** The confirmations of the challenge that reached the mock, oldest first. */
  async confirmations(challengeId: string, otp: string): Promise<Confirmation[]> {
    const log = await this.#knobs.requests()
    return log.flatMap(({ method, path, body, at }) => {
      if (method !== 'POST' || !/^\/v1\/entity\/identities\/[^/?]+\/authenticate(\?|$)/.test(path)) return []
      const sent = parseObject(body)
      return sent?.challenge === challengeId ? [{ path, otpMatches: sent.otp === fingerprint(otp), at }] : []
    })
  }

  /** The challenge's state at the mock: `signed`, `consumed` (confirmed), ... */
  async challengeState(challengeId: string): Promise<string | undefined> {
    const challenges = await this.#knobs.challenges({ key: this.key })
    return challenges.find(({ id }) => id === challengeId)?.state
  }

  /** The next confirmations fail with `status` (a redirect to `location`, with a 3xx), until `endFailures`. */
  async failConfirmations(status: number, location?: string): Promise<void> {
    // A few, for a controller that tries again: each try meets the failure.
    await this.#controls.failNext({ status, count: 3, match: 'authenticate', ...(location !== undefined && { location }) })
  }

  /** Forgets the failures still queued through the key. */
  async endFailures(): Promise<void> {
    await this.#knobs.endFailures({ key: this.key }).catch(asCheckError)
  }

  /** A request of the check's own to the mock, with a JSON body; a mock that cannot be reached is a reason it cannot run. */
  #fetch(path: string, method: string, body: unknown): Promise<Response> {
    const signal = AbortSignal.timeout(MOCK_ANSWER_TIMEOUT_MS)
    return fetch(`${this.url}${path}`, { method, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal }).catch(
      (error: unknown) => {
        throw new ControllerCheckError(noAnswer(this.url, `${method} ${path}`, error))
      },
    )
  }

  /** The next confirmation waits at the mock until `release`: a service that does not answer. */
  async holdConfirmation(): Promise<void> {
    await this.#controls.holdNext({ match: 'authenticate' })
  }

  /** Resolves true once a request of the key is held, or false once `settled` settles first. */
  async heldBefore(settled: Promise<unknown>): Promise<boolean> {
    let done = false
    const end = () => (done = true)
    settled.then(end, end)
    while (!done) {
      if ((await this.#controls.held()).length) return true
      await new Promise((resolve) => setTimeout(resolve, HELD_POLL_MS))
    }
    return (await this.#controls.held()).length > 0
  }

  /** Lets the key's held requests go on. */
  release(): Promise<number> {
    return this.#controls.release()
  }

  /**
   * Uses up a hold no controller request took, so that it holds no later case's confirmation: the
   * mock has no knob to forget one, so the check sends a confirmation of its own into it and
   * lets that go.
   */
  async useUpHold(): Promise<void> {
    const own = this.#client.authenticate('check-hold', { challenge: 'check-hold', otp: 'check-hold' }).catch(() => undefined)
    await this.heldBefore(own)
    await this.release()
    await own
  }
}

/** What the kit says of a mock it cannot use, as a reason the check cannot run. */
function asCheckError(error: unknown): never {
  if (error instanceof TestKitError && !(error instanceof ControllerCheckError)) throw new ControllerCheckError(error.message)
  throw error
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}
