// Why the controller refused a sign-in: each reason's answer to the browser, and the one line the
// integrator's log gets, naming the cause and its fix. Without that line a refusal is silent on
// the server, and the browser shows only a status: a wrong secret or a user store without the
// test identity looked like nothing at all.
import type { AuthTokenProblem } from './verify.js'

/** What a refusal's line is made of. */
interface Facts {
  /** The header the token is read from. */
  header: string
  /** What went wrong, in a sentence: the token's or the service's own words. */
  detail: string
  /** The signed `sub`, once the token has been verified. */
  identifier?: string
}

interface Reason {
  status: 400 | 401 | 403 | 423 | 502
  /** The problem's `detail` for the browser; the facts' detail where there is none. */
  answer?: string
  /** The log line after the prefix: the cause, then the fix. */
  line(facts: Facts): string
}

const NOT_CONFIRMED = 'The service did not confirm this sign-in.'
const SERVICE_FAILED = 'The sign-in service could not confirm this sign-in.'

// One entry per reason: the reasons' type, the answers and the log lines all come from here.
const REASONS = {
  'not-xhr': {
    status: 400,
    answer: 'Only the sign-in embed may sign in here.',
    line: () =>
      'request without X-Requested-With: XMLHttpRequest, which the embed always sends and another site cannot add without your CORS consent: is it a link, a form or a script of your own?',
  },
  'cross-site': {
    status: 403,
    answer: 'Only the sign-in embed on this site may sign in here.',
    line: ({ detail }) =>
      `request from another site's page (Sec-Fetch-Site: ${detail}), where the embed calls its own origin: does your CORS setup let other origins send credentials with X-Requested-With?`,
  },
  'no-token': {
    status: 401,
    answer: 'There is no token.',
    line: ({ header }) =>
      `no token in the ${header} header: is the request from the embed, and does the header option match the page's data-service-auth-header?`,
  },
  malformed: { status: 401, line: ({ header, detail }) => `token malformed (${detail}): is the ${header} header's value the token the embed sent?` },
  signature: { status: 401, line: () => 'token not signed with this secret: does SERVICE_SECRET match the key?' },
  expired: { status: 401, line: ({ detail }) => `token too old (${detail}): is this server's clock right?` },
  'not-yet-valid': { status: 401, line: ({ detail }) => `token from the future (${detail}): is this server's clock right?` },
  claims: { status: 401, line: ({ detail }) => `token's claims refused (${detail}): is it a sign-in token from the service?` },
  audience: { status: 401, line: ({ detail }) => `token for another key (${detail}): does SERVICE_KEY match the page's data-service-key?` },
  issuer: { status: 401, line: ({ detail }) => `token from another service (${detail}): does SERVICE_URL match the page's data-service-api?` },
  'unknown-user': {
    status: 403,
    answer: 'This user may not sign in here.',
    line: ({ identifier }) => `user ${identifier} not in your store: findUser returned nothing`,
  },
  'not-confirmed': {
    status: 401,
    answer: NOT_CONFIRMED,
    line: ({ identifier, detail }) => `sign-in of ${identifier} not confirmed by the service (${detail}): a token used twice, or a challenge of another key?`,
  },
  locked: {
    status: 423,
    answer: 'This identity is locked.',
    line: ({ identifier }) => `identity ${identifier} locked at the service: unlock it with client.identities.update(identifier, { locked: false })`,
  },
  unreachable: {
    status: 502,
    answer: SERVICE_FAILED,
    line: ({ detail }) => `service unreachable (${detail}): is SERVICE_URL right, and the service up?`,
  },
  'service-failed': {
    status: 502,
    answer: SERVICE_FAILED,
    line: ({ detail }) => `service failed to confirm (${detail}): only a 200 from authenticate confirms; is SERVICE_URL the service's?`,
  },
} satisfies Record<AuthTokenProblem, Reason> & Record<string, Reason>

/**
 * Why a sign-in was refused: an AuthTokenProblem (`malformed`, `signature`, `expired`,
 * `not-yet-valid`, `claims`, `audience`, `issuer`), or `not-xhr` (not the embed's request: no
 * `X-Requested-With: XMLHttpRequest`), `cross-site` (the browser says another site's page sent
 * it: `Sec-Fetch-Site` other than `same-origin`), `no-token`, `unknown-user` (findUser found no one),
 * `not-confirmed` (the service answered 401 or 404: a challenge used already, a wrong otp),
 * `locked`, `unreachable` or `service-failed` (any other answer than 200).
 */
export type RefusalReason = keyof typeof REASONS

const TITLES = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 423: 'Locked', 502: 'Bad Gateway' } as const

// C0 and C1 controls and the line and paragraph separators: whatever a token or the service says
// stays on its one line of the log.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g

/** A refusal: the problem to answer the browser with, and the line for the integrator's log. */
export function describeRefusal(reason: RefusalReason, facts: Facts): { status: number; title: string; detail: string; line: string } {
  const { status, answer, line }: Reason = REASONS[reason]
  const printable = (text: string) => text.replace(UNPRINTABLE, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).slice(0, 500)
  return {
    status,
    title: TITLES[status],
    detail: answer ?? facts.detail,
    line: `service-auth/server refused a sign-in (${status}, ${reason}): ${printable(line({ ...facts, detail: facts.detail.slice(0, 300) }))}`,
  }
}
