// checkController: the conformance check of an integrator's controller (spec section 4), in any
// language, against a running mock service it is configured with. The check plays the embed and
// the phone: it signs real codes, forges broken tokens, makes the service refuse, fail or not
// answer, and judges each case by what the controller answered, what reached the mock, and
// whether the browser is signed in afterwards.
import { decodeSecret } from '../../common/credentials.js'
import { ControllerCheckError } from '../errors.js'
import { Browser, isOk } from './browser.js'
import type { CaseContext, CheckCase, ControllerCheck, ControllerCheckReport, Verdict } from './cases.js'
import { CookieJar } from './cookie-jar.js'
import { MockSide } from './mock-side.js'
import { REFUSALS } from './refusals.js'
import { validSignIn } from './sign-in.js'
import { REFUSED_PORT_FAILURE, refusedPortAdvice } from './refused-ports.js'
import { Tokens } from './tokens.js'
import { WARNINGS } from './warnings.js'

/** Every case, in the order they run and are reported: the valid sign-in first, as others build on it. */
export const CASES: readonly CheckCase[] = [validSignIn, ...REFUSALS, ...WARNINGS]

export interface CheckControllerOptions {
  /** The controller's absolute URL, as the embed calls it: `http://127.0.0.1:3000/auth/controller`. */
  controller: string
  /** A user the app's store lets sign in; enrolled at the mock with a test phone when it has none. */
  identity: string
  /** A page of the app that answers 2xx only to a signed-in browser; without it, sessions are judged by the controller's answers. */
  signedIn?: string
  /** The mock service's URL, which the controller is configured with (its SERVICE_URL). */
  service: string
  /** The API key the controller uses, and its secret (Base64): its SERVICE_KEY and SERVICE_SECRET. */
  key: string
  secret: string
}

/**
 * What the check's messages call each option: `signedIn` from JavaScript, `--signed-in` from the
 * command (command.ts derives its names from its table of options), so that a message names what
 * the caller wrote.
 */
export type OptionNames = Record<keyof CheckControllerOptions, string>

/** The options' own names, as a caller of checkController writes them. */
const OWN_NAMES: OptionNames = { controller: 'controller', identity: 'identity', signedIn: 'signedIn', service: 'service', key: 'key', secret: 'secret' }

/**
 * Checks the controller against the mock service it is configured with, case by case: valid
 * sign-ins must pass, each flaw must be refused with no session started, and weaknesses are
 * warned of. Resolves to every case's verdict; rejects with a `ControllerCheckError` when it
 * cannot judge (the controller or the mock cannot be reached, the mock has no knobs, a wrong key).
 * @example expect((await checkController({ controller, identity: 'ada@example.com', service: url, key, secret })).checks.filter((check) => check.outcome === 'fail')).toEqual([])
 */
export function checkController(options: CheckControllerOptions): Promise<ControllerCheckReport> {
  return checkControllerNaming(options, OWN_NAMES)
}

/** checkController, its messages naming each option as `names` says (the command's: by its flags). */
export async function checkControllerNaming(options: CheckControllerOptions, names: OptionNames): Promise<ControllerCheckReport> {
  const controller = httpUrl(names.controller, options.controller)
  const signedIn = options.signedIn === undefined ? undefined : httpUrl(names.signedIn, options.signedIn)
  if (signedIn && signedIn.hostname !== controller.hostname) {
    // Cookies go back to the host that set them, whatever the port: the jar plays a browser.
    throw new ControllerCheckError(
      `${names.signedIn} ${signedIn.href} is not on the controller's host, ${controller.hostname}: a browser sends the session cookie only there. Name a page of ${controller.hostname}`,
    )
  }
  // Checked here, not by createClient, whose message names its own option (baseUrl).
  httpUrl(names.service, options.service)
  if (!options.identity) throw new ControllerCheckError(`${names.identity} is missing: name a user your store lets sign in`)
  let secret: Uint8Array
  try {
    secret = decodeSecret(options.secret ?? '')
  } catch (error) {
    throw new ControllerCheckError(`${names.secret}: ${(error as Error).message}`)
  }
  const mock = await MockSide.connect(options.service, options.key, options.secret, names)
  const browser = new Browser(controller, signedIn)
  await reachable(browser)
  await mock.ensurePhone(options.identity).catch(cannotRun(`enrolling ${options.identity} with a phone`))
  const stranger = await mock.newStranger().catch(cannotRun('enrolling a stranger with a phone'))
  const context: CaseContext = { mock, browser, tokens: new Tokens(mock, secret), identity: options.identity, names, stranger }
  try {
    const verdicts: Promise<Verdict>[] = []
    for (const check of CASES) {
      if (!check.background) {
        verdicts.push(Promise.resolve(await check.run(context, () => {})))
        continue
      }
      let ready!: () => void
      const started = new Promise<void>((resolve) => (ready = resolve))
      const verdict = check.run(context, ready)
      // Awaited below, in its turn; until then a failure must not count as unhandled.
      verdict.catch(() => {})
      verdicts.push(verdict)
      await Promise.race([started, verdict])
    }
    const checks: ControllerCheck[] = []
    for (const [index, check] of CASES.entries()) {
      const { outcome, evidence, fix } = await verdicts[index]!
      checks.push({ id: check.id, title: check.title, outcome, evidence, fix: outcome === 'fail' || outcome === 'warn' ? (fix ?? check.fix) : null })
    }
    return { checks }
  } finally {
    // Whatever happened, nothing of the check's stays queued or held at the mock for the key.
    await mock.release().catch(() => {})
    await mock.endFailures().catch(() => {})
    await mock.forget(stranger)
  }
}

/** The controller and the signed-in page answer at all, and the page does not take a stranger for signed in. */
async function reachable(browser: Browser): Promise<void> {
  const answer = await browser.call({ jar: new CookieJar() })
  if (answer.error === REFUSED_PORT_FAILURE)
    throw new ControllerCheckError(`the controller at ${browser.controller.href} cannot be called: ${refusedPortAdvice(browser.controller)}`)
  if (answer.status === 0) {
    // No connection at all, or one the app took and then dropped or kept waiting: two fixes.
    const question = /\((ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)\)$/.test(answer.error!)
      ? 'is the app running there?'
      : 'the app is there, but does it answer every request, without a token too?'
    throw new ControllerCheckError(`the controller at ${browser.controller.href} gave ${answer.error}: ${question}`)
  }
  const page = browser.signedInPage
  if (!page) return
  const status = await browser.signedInStatus(new CookieJar())
  if (status === 0) throw new ControllerCheckError(`the signed-in page ${page.href} gave no answer: is the app running there?`)
  if (isOk(status!)) {
    throw new ControllerCheckError(
      `the signed-in page ${page.href} answered ${status} to a browser that is not signed in: name a page that answers 2xx only to a signed-in browser`,
    )
  }
}

function httpUrl(name: string, value: string | undefined): URL {
  let url: URL | undefined
  try {
    url = new URL(value ?? '')
  } catch {
    // Said below.
  }
  if (!url || !/^https?:$/.test(url.protocol)) throw new ControllerCheckError(`${name} must be an absolute http(s) URL, not ${JSON.stringify(value ?? '')}`)
  return url
}

/** A failure while setting up, as a reason the check cannot run. */
const cannotRun =
  (what: string) =>
  (error: unknown): never => {
    if (error instanceof ControllerCheckError) throw error
    const status = (error as { status?: number }).status
    throw new ControllerCheckError(`${what}: ${status ? `the mock answered ${status}: ` : ''}${(error as Error).message}`)
  }
