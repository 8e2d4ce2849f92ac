// The network layer towards the service: what the widget sends, and the answers it accepts.
import { toUrl, type Config } from './config.js'
import { malformed, ServiceAuthFailure } from './failure.js'
import { send } from './http.js'
import type { ChallengeJson, ChallengeStatusJson, CreateChallengeBody } from './wire/challenge.js'

/** A challenge as the service described it, checked: only what the widget uses. */
export interface Challenge {
  id: string
  expiresAt: string
  /** How long the code lives (ms), as the service's own clock measures it: a skewed client clock does not matter. */
  lifetime: number
  /** Where its status is long-polled. */
  pollingUrl: string
  /** The QR image: a `data:` URL, or an http(s) URL on the service. */
  imageSrc: string
}

/** One long poll's outcome: not signed yet, the code is gone (expired, or unknown to the service), or the signed token. */
export type Poll = 'pending' | 'expired' | 'unknown' | { token: string }

/** A code that lives less than a second is of no use to anyone. */
const SHORTEST_LIFETIME = 1000
// A poll may outlast the code's deadline by this much, for the service's own clock and the
// network; then it is given up, and the code is found expired and replaced.
const POLL_MARGIN = 3000

/**
 * `POST {api}/v1/entity/challenges`. Unsigned on purpose: the API secret never reaches a browser.
 * Among the 4xx only 429 is worth retrying: the others (400, 401, 403 above all) mean the key,
 * origin or API URL is wrong, which will not get better by itself, so they are `rejected`.
 */
export const createChallenge = (config: Config, signal: AbortSignal): Promise<Challenge> =>
  send<Challenge, ChallengeJson>({
    url: config.api + '/v1/entity/challenges',
    init: {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      // authType is only sent when the markup names one, as the incumbent embed did.
      body: JSON.stringify({ key: config.apiKey, authType: config.authType, returnAuthImageData: config.imageData } satisfies CreateChallengeBody),
      // The service is a third party: even where it shares this page's origin, it gets no cookies.
      credentials: 'omit',
      // Nor is a redirect an answer of the service's: followed, it would make this page send
      // requests wherever the service names (its own origin's paths, say). It fails as a network error.
      redirect: 'error',
      signal,
      // The default cache mode, not no-store, on purpose: under no-store Chromium skips its CORS
      // preflight cache, so every new code would cost a preflight and a POST, not one request.
      // (A POST's answer never comes from an HTTP cache anyway.)
    },
    read: (json, res) => toChallenge(json, res, config),
    // No answer at all: a wrong port or host in the markup, or the service down. The network tab
    // says only that the connection failed, not which of the widget's options names it.
    unreachable: `no answer from ${config.api}. Check ${config.name('api')}.`,
    // The service's own reason, which otherwise only the network tab shows. (5xx and 429: `service`.)
    refused: (res, problem) =>
      res.status < 500 &&
      res.status != 429 &&
      new ServiceAuthFailure(
        'rejected',
        `the service refused a code (${res.status}): ${problem || 'no reason given'} Check ${config.name('apiKey')}, ${config.name('api')}.`,
        res,
      ),
  })

/**
 * Checks a challenge the service sent (`res`): every field the widget relies on must be there and
 * sane, or the first that is not is named in the failure.
 * The service is not trusted: its URLs are used only when they are http(s) under its own base URL
 * (`api`), so it cannot make this page send requests (with cookies, or to the
 * controller) anywhere else, even where it shares this page's origin.
 */
const toChallenge = (json: Partial<ChallengeJson>, res: Response, config: Config): Challenge => {
  const { id, createdAt, expiresAt, authImages, pollingUrl } = json
  const onService = (value: unknown) => {
    const url = toUrl(value)?.href
    if (url?.startsWith(config.api + '/')) return url
  }
  // A kind the service does not offer is the markup's fault, which no retry can mend. (The
  // spec gives image data for the same kinds as URLs, so the URLs' kinds are the ones offered.)
  // Offered are the kinds that authImages, a JSON object, maps to a URL on the service: one that
  // offers none ({}, [], a string) is the service's broken answer, retried as such, and says
  // nothing of the markup. Only an answer's own keys are kinds: `__proto__` or `constructor` in
  // the markup is a kind no service offers, not a way into Object.prototype.
  const kinds: Record<string, unknown> = authImages?.constructor == Object ? authImages : {}
  const offered = Object.keys(kinds).filter((kind) => onService(kinds[kind]))
  const image = Object.hasOwn(kinds, config.imageKind) ? kinds[config.imageKind] : undefined
  if (offered[0] && !image) throw new ServiceAuthFailure('config', `${config.name('imageKind')} is missing or invalid; offered: ${offered}`)
  // Data is used only as a string, so an inherited kind finds none here either.
  const data = config.imageData ? json.authImagesData?.[config.imageKind] : undefined
  const imageSrc = typeof data == 'string' ? 'data:image/png;base64,' + data : onService(image)
  const statusUrl = onService(pollingUrl)
  // By the service's own clock (the spec gives both times). Strings only: Date.parse would take
  // the number 2031 for that year, and the ready event would carry a number as expiresAt.
  const time = (value: unknown) => (typeof value == 'string' ? Date.parse(value) : NaN)
  const created = time(createdAt)
  const lifetime = time(expiresAt) - created
  // An id with a lone surrogate (not well formed) cannot go into a URL (encodeURIComponent
  // throws): a bad answer.
  if (typeof id != 'string' || !id.isWellFormed()) throw malformed(res, 'id')
  // A status URL elsewhere: most likely the page names the service by another name than the
  // service's own URLs do (localhost for 127.0.0.1, a proxy's host), which a URL under that base
  // alone can reach. Said so, and final (see malformed): no retry mends the markup. Checked
  // before the image, whose URL would be elsewhere too. A field that is missing is a bad answer.
  if (!statusUrl) throw malformed(res, 'pollingUrl', toUrl(pollingUrl) && `: not under ${config.api}`)
  if (!imageSrc) throw malformed(res, 'authImages')
  // biome-ignore lint/suspicious/noGlobalIsNan: created is a number already (Date.parse's, or NaN), where the global is the same test
  if (isNaN(created)) throw malformed(res, 'createdAt')
  // NaN too: an expiresAt that is no string, or does not parse.
  if (!(lifetime >= SHORTEST_LIFETIME)) throw malformed(res, 'expiresAt')
  // A string that parses, or the lifetime would be NaN.
  return { id, expiresAt: expiresAt as string, lifetime, pollingUrl: statusUrl, imageSrc }
}

/**
 * One long poll of the challenge status. A poll still unanswered a little after the code's
 * `deadline` (epoch ms, this browser's clock) fails as `network`, and one asked after it finds
 * the code expired without asking. Any status but 2xx, 404 and 410 fails as `service`.
 */
export const pollStatus = async (url: string, deadline: number, signal: AbortSignal): Promise<Poll> =>
  Date.now() > deadline
    ? 'expired'
    : send<Poll, ChallengeStatusJson>({
        url,
        // Never from an HTTP cache: each poll asks the service afresh.
        init: { credentials: 'omit', cache: 'no-store', redirect: 'error', signal },
        // Only a 200 carries the token; a 204 (or another 2xx) is the long poll's "not yet".
        read: ({ token }, res) => {
          if (res.status != 200) return 'pending'
          if (typeof token == 'string' && token) return { token }
          throw malformed(res, 'token')
        },
        // The service says a code expired (410), or has forgotten it, as it does some time after (404).
        outcomes: { 404: 'unknown', 410: 'expired' },
        limit: deadline + POLL_MARGIN - Date.now(),
      })
