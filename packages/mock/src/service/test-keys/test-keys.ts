// Test keys, as Turnstile has test sitekeys: API keys every mock run knows, each behaving one
// fixed way, so that an integrator's own tests (and a person trying a page) need no phone, no
// code and no configuration. They exist only here, in the mock: never a default of the embed or
// of the controller helper, so nothing built against them can reach a real service by accident.
// They plug into the service through its hooks (hooks.ts); no handler knows of them.
import type { Challenge } from '../challenges/challenge-store.js'
import { signChallenge } from '../challenges/sign-challenge.js'
import type { ServiceContext } from '../context.js'
import type { Device, Identity } from '../identities/identity-store.js'
import {
  DEFAULT_TEST_IDENTITY,
  EXPIRES_AFTER_MS,
  SIGN_AFTER_MS,
  TEST_APP,
  TEST_KEYS,
  TEST_SECRET,
  UNAVAILABLE_RETRY_AFTER_S,
  type TestKeyOptions,
} from './published-keys.js'

const TEST_PHONE = { model: 'Test phone', label: 'test-signs' }

export class TestKeys {
  readonly identity: string
  /** Challenges whose signing is scheduled, so that a second poll does not schedule it again. */
  readonly #scheduled = new Set<string>()

  constructor({ identity = DEFAULT_TEST_IDENTITY }: TestKeyOptions = {}) {
    // The operator's configuration: a mistake stops the start, as a bad key does.
    if (!/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(identity)) {
      throw new Error(`The test identity must be 1 to 255 printable characters, not ${JSON.stringify(identity)}.`)
    }
    this.identity = identity
  }

  /**
   * Adds the keys to the service's own, and what each does to its hooks: `test-expires` a
   * lifetime, `test-unavailable` a failure that never runs out, `test-signs` a phone that signs
   * after the first poll. The keys allow any origin, as an integrator's pages may be anywhere.
   */
  plugInto(context: ServiceContext): void {
    for (const key of Object.values(TEST_KEYS)) {
      if (context.access.keys.get(key)) throw new Error(`The API key ${key} is a test key of the mock: name yours otherwise, or turn the test keys off.`)
      context.access.keys.add({ key, secret: TEST_SECRET, app: TEST_APP, allowedOrigins: [] })
    }
    context.hooks.setChallengeLifetime(TEST_KEYS.expires, EXPIRES_AFTER_MS)
    context.hooks.addStandingFault({
      match: 'create',
      key: TEST_KEYS.unavailable,
      status: 503,
      retryAfter: String(UNAVAILABLE_RETRY_AFTER_S),
      network: false,
      detail: `${TEST_KEYS.unavailable} is a test key: challenge creation with it is always unavailable.`,
    })
    context.hooks.onPoll((challenge) => this.#polled(context, challenge))
    // Enrolled, with its phone, from the start and after each reset: an integrator's back
    // office finds it like any other.
    this.ensurePhone(context)
    context.hooks.onReset(() => this.ensurePhone(context))
  }

  /**
   * The test identity and its phone, made when missing: at start, after a reset, and again
   * before signing, in case a test deleted the identity or its phone meanwhile.
   */
  ensurePhone(context: ServiceContext): { identity: Identity; device: Device } {
    const identity = context.stores.identities.get(TEST_APP, this.identity) ?? context.stores.identities.create(TEST_APP, this.identity)
    const device = identity.devices.at(-1) ?? context.stores.identities.addDevice(identity, TEST_PHONE)
    return { identity, device }
  }

  /** On each status poll of a challenge: the first one of a `test-signs` challenge sets its signing going. */
  #polled(context: ServiceContext, challenge: Challenge): void {
    if (challenge.key !== TEST_KEYS.signs || challenge.state !== 'pending' || this.#scheduled.has(challenge.id)) return
    this.#scheduled.add(challenge.id)
    context.timers.set(() => {
      this.#scheduled.delete(challenge.id)
      const { identity, device } = this.ensurePhone(context)
      // A challenge that expired or was reset away meanwhile stays as it is.
      void signChallenge(context, challenge, identity, device)
    }, SIGN_AFTER_MS)
  }
}
