// `@service-auth/mock/knobs`: every /__knobs/ endpoint of a running mock as a typed call, what the
// test kit, the check of a controller, this repository's end-to-end tests and its bench all
// steer the mock with. What each knob takes and answers is the mock's own (knob-wire.ts); a
// refusal is a KnobError that says what was asked and what the mock answered.
import { KnobError } from './errors.js'
import { readProblem } from './problem-detail.js'
import type {
  ChallengeFailKnob,
  DelayKnob,
  DeviceKnob,
  FailKnob,
  HeldRequest,
  HoldKnob,
  IssuedKey,
  KeyScope,
  ListedChallenge,
  ListedEnrollment,
  LoggedRequest,
  OutboxMessage,
  ProvisionedDevice,
  Released,
  ServiceSettings,
  SettingsKnob,
  SignedChallenge,
  SignKnob,
} from '../knobs/knob-wire.js'
import { mockUrl } from './mock-url.js'
import { MOCK_ANSWER_TIMEOUT_MS, noAnswer } from './unreached.js'

export type * from '../knobs/knob-wire.js'
export { KnobError } from './errors.js'

/**
 * The knobs of the mock at `url` (`service-auth-mock`, or `startMockService()`'s `url`), which
 * must have them on. A call with `key` acts on that API key's requests and challenges only, so
 * tests that share one mock, each with a key of its own (`createKey()`), never touch each other's.
 * @example const knobs = new KnobClient('http://127.0.0.1:8081'); await knobs.fail({ status: 503, match: 'create' })
 */
export class KnobClient {
  /** The mock's base URL, no trailing slash. */
  readonly url: string

  /** `url`: an http(s) URL, a string or a URL; anything else is a TypeError that says so. */
  constructor(url: string | URL) {
    this.url = mockUrl(url, "KnobClient's url")
  }

  /** GET /__knobs/challenges: every challenge, or one key's, oldest first. */
  challenges({ key }: KeyScope = {}): Promise<ListedChallenge[]> {
    return this.#call('GET', `challenges${query({ key })}`, undefined, 200, 'listing the challenges')
  }

  /** POST /__knobs/challenges/{id}/sign: a provisioned phone of the identity signs; the token the embed will get. */
  signChallenge(id: string, body: SignKnob): Promise<SignedChallenge> {
    return this.#call('POST', `challenges/${encodeURIComponent(id)}/sign`, body, 200, `signing the challenge ${id}`)
  }

  /** POST /__knobs/challenges/{id}/expire: the challenge expires now. */
  expireChallenge(id: string, body: KeyScope = {}): Promise<void> {
    return this.#call('POST', `challenges/${encodeURIComponent(id)}/expire`, body, 204, `expiring the challenge ${id}`)
  }

  /** POST /__knobs/challenges/{id}/consume: what a confirmation (authenticate) does to it. */
  consumeChallenge(id: string, body: KeyScope = {}): Promise<void> {
    return this.#call('POST', `challenges/${encodeURIComponent(id)}/consume`, body, 204, `consuming the challenge ${id}`)
  }

  /** POST /__knobs/challenges/{id}/fail: the challenge's next status polls fail (default 500, once). */
  failChallenge(id: string, rule: ChallengeFailKnob = {}): Promise<void> {
    return this.#call('POST', `challenges/${encodeURIComponent(id)}/fail`, rule, 204, `queueing failures of the challenge ${id}`)
  }

  /** POST /__knobs/keys: a fresh API key of an app of its own, any origin, every permission. */
  createKey(): Promise<IssuedKey> {
    return this.#call('POST', 'keys', {}, 201, 'taking a key of its own')
  }

  /** DELETE /__knobs/keys/{key}: frees a key `createKey()` gave, with everything made with it (its challenges, its app's identities, its rules). */
  freeKey(key: string): Promise<void> {
    return this.#call('DELETE', `keys/${encodeURIComponent(key)}`, undefined, 204, `freeing the key ${key}`)
  }

  /** POST /__knobs/devices: redeems an enrollment (what its QR code says, or its id) as a phone would. */
  provisionDevice(body: DeviceKnob): Promise<ProvisionedDevice> {
    return this.#call('POST', 'devices', body, 201, 'provisioning a phone')
  }

  /** GET /__knobs/enrollments: every enrollment, oldest first. */
  enrollments(): Promise<ListedEnrollment[]> {
    return this.#call('GET', 'enrollments', undefined, 200, 'listing the enrollments')
  }

  /** POST /__knobs/enrollments/{id}/expire: redeeming it is then a 410. */
  expireEnrollment(id: string): Promise<void> {
    return this.#call('POST', `enrollments/${encodeURIComponent(id)}/expire`, {}, 204, `expiring the enrollment ${id}`)
  }

  /** POST /__knobs/fail: the next matching requests fail. */
  fail(rule: FailKnob): Promise<void> {
    return this.#call('POST', 'fail', rule, 204, 'queueing the failure')
  }

  /** DELETE /__knobs/fail: the failures still queued (all, or one key's) go unused. */
  endFailures(body: KeyScope = {}): Promise<void> {
    return this.#call('DELETE', 'fail', body, 204, 'ending the failures')
  }

  /** POST /__knobs/delay: the next matching requests wait `ms` first. */
  delay(rule: DelayKnob): Promise<void> {
    return this.#call('POST', 'delay', rule, 204, 'queueing the delay')
  }

  /** POST /__knobs/hold: the next matching requests wait until `release()`. */
  hold(rule: HoldKnob = {}): Promise<void> {
    return this.#call('POST', 'hold', rule, 204, 'queueing the hold')
  }

  /** GET /__knobs/hold: the requests waiting for a release now (all, or one key's), oldest first. */
  held({ key }: KeyScope = {}): Promise<HeldRequest[]> {
    return this.#call('GET', `hold${query({ key })}`, undefined, 200, 'listing the held requests')
  }

  /** POST /__knobs/release: the held requests (all, or one key's) go on; how many went. */
  async release(body: KeyScope = {}): Promise<number> {
    return (await this.#call<Released>('POST', 'release', body, 200, 'releasing the held requests')).released
  }

  /** GET /__knobs/config: the settings the knobs may change. */
  settings(): Promise<ServiceSettings> {
    return this.#call('GET', 'config', undefined, 200, 'reading its settings')
  }

  /** POST /__knobs/config: changes some of them; all of them as they are now. */
  configure(changes: SettingsKnob): Promise<ServiceSettings> {
    return this.#call('POST', 'config', changes, 200, 'changing its settings')
  }

  /** GET /__knobs/requests: the /v1/ requests received, oldest first, credentials as fingerprints. */
  requests(): Promise<LoggedRequest[]> {
    return this.#call('GET', 'requests', undefined, 200, 'reading its request log')
  }

  /** GET /__knobs/outbox: the e-mails the service would have sent, oldest first. */
  outbox(): Promise<OutboxMessage[]> {
    return this.#call('GET', 'outbox', undefined, 200, 'reading its outbox')
  }

  /** DELETE /__knobs/outbox: empties it. */
  clearOutbox(): Promise<void> {
    return this.#call('DELETE', 'outbox', undefined, 204, 'emptying its outbox')
  }

  /** POST /__knobs/reset: forgets every challenge, identity, rule, request and e-mail, and restores the settings; keys stay. */
  reset(): Promise<void> {
    return this.#call('POST', 'reset', undefined, 204, 'resetting it')
  }

  /** One knob request; the answer's JSON (nothing for a 204) when its status is `expected`, else a KnobError saying `what` was asked. */
  async #call<T>(method: string, path: string, body: object | undefined, expected: number, what: string): Promise<T> {
    let res: Response
    let text: string
    try {
      res = await fetch(`${this.url}/__knobs/${path}`, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(MOCK_ANSWER_TIMEOUT_MS),
      })
      text = await res.text()
    } catch (error) {
      throw new KnobError(noAnswer(this.url, `${method} /__knobs/${path}`, error))
    }
    if (res.status !== expected) {
      const problem = readProblem(text)
      // A mock started without knobs answers its router's 404 (every call here names a knob that
      // exists), and any other server a 404 of its own, not problem JSON.
      if (res.status === 404 && (problem.detail === NO_ROUTE || !text.includes('"status"')))
        throw new KnobError(`the mock service at ${this.url} has no knobs: start it with them on (not --no-knobs, not SERVICE_KNOBS=0)`, 404, problem.detail)
      throw KnobError.refusal({ what, status: res.status, ...problem })
    }
    return (text === '' ? undefined : JSON.parse(text)) as T
  }
}

/** What the mock answers (404) at a path it does not route, the knobs' when they are off. */
const NO_ROUTE = 'There is nothing at this address.'

/** `?key=...` when there is a key. */
const query = ({ key }: KeyScope) => (key === undefined ? '' : `?key=${encodeURIComponent(key)}`)
