// The service's two browser-facing calls (spec section 4): create a challenge, poll its status.
// What they return is the wire model, checked; the widget maps it to what the view shows.
import { ATTRIBUTES, invalid, toUrl, type Config } from './config.js'
import type { ErrorReason } from './events.js'
import { failure, MALFORMED, send, type Body } from './http.js'
import type { ChallengeJson, ChallengeRequestJson, SignedStatusJson } from './wire/challenge.js'

/**
 * A challenge as the service described it, with every field the widget relies on checked. Its
 * images are those of the configured kind only.
 */
export type Challenge = Pick<ChallengeJson, 'id' | 'createdAt' | 'expiresAt' | 'pollingUrl' | 'authImages' | 'authImagesData'>

/** What one long poll found: not signed yet, expired (410), unknown to the service (404), or signed. */
export type PollOutcome = 'pending' | 'expired' | 'unknown' | SignedStatusJson

// A poll may outlast the code's deadline by this much, for the service's own clock and the
// network; then it is given up, and the code is found expired and replaced.
const POLL_MARGIN = 3000

// A code that lives less than this cannot be scanned before it expires.
const MIN_LIFETIME = 1000

const TO_THE_SERVICE: RequestInit = {
  // The service is a third party: even where it shares this page's origin, it gets no cookies.
  credentials: 'omit',
  // Its answers come from where the page asked: a redirect could lead the page's requests to
  // its own origin (or anywhere), which nothing but the controller call may reach.
  redirect: 'error',
}

/**
 * Why the service refused, by status. A 3xx without a Location (one with a Location fails in
 * fetch itself) is no answer the request can mean: `response`, as a malformed one is.
 */
const refusal =
  (permanent: (status: number) => boolean) =>
  (status: number): ErrorReason =>
    status < 400 ? 'response' : permanent(status) ? 'rejected' : 'service'

/**
 * `POST {api}/v1/entity/challenges`. Unsigned on purpose: the API secret never reaches a browser.
 * Among the 4xx only 429 is worth retrying: the others (400, 401, 403 above all) mean the key,
 * origin or API URL is wrong, which will not get better by itself, so they are `rejected`.
 */
export const createChallenge = (config: Config, signal: AbortSignal): Promise<Challenge> => {
  // authType is only sent when the markup names one, as the incumbent embed did.
  const request: ChallengeRequestJson = { key: config.apiKey, authType: config.authType, returnAuthImageData: config.imageData }
  return send({
    url: config.api + '/v1/entity/challenges',
    init: {
      ...TO_THE_SERVICE,
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(request),
      // The default cache mode, not no-store, on purpose: under no-store Chromium skips its CORS
      // preflight cache, so every new code would cost a preflight and a POST, not one request.
      // (A POST's answer never comes from an HTTP cache anyway.)
    },
    signal,
    read: (body) => toChallenge(body, config),
    refused: refusal((status) => status < 500 && status != 429),
  })
}

/** `value[key]`, for values of unknown shape: undefined where there is nothing to index. */
const field = (value: unknown, key: string): unknown => Object(value)[key]

/**
 * The challenge in a response body, if every field the widget relies on is there and sane.
 * The service is not trusted: its URLs are used only when they are http(s) under its own base URL
 * (`data-service-api`), so it cannot make this page send requests (with cookies, or to the
 * controller) anywhere else, even where it shares this page's origin.
 */
const toChallenge = (body: Body, { api, imageKind, imageData }: Config): Challenge | typeof MALFORMED => {
  const { id, createdAt, expiresAt, pollingUrl, authImages } = body
  const onService = (value: unknown): value is string => typeof value == 'string' && !!toUrl(value)?.href.startsWith(api + '/')
  const imageUrl = field(authImages, imageKind)
  // A kind the service does not offer is the markup's fault, which no retry can mend. (The
  // spec gives image data for the same kinds as URLs, so the URLs' kinds are the ones offered.)
  if (authImages && !imageUrl) {
    throw failure('config', undefined, invalid(ATTRIBUTES.imageKind) + '; offered: ' + Object.keys(authImages))
  }
  const data = imageData ? field(body.authImagesData, imageKind) : undefined
  // By the service's own clock (the spec gives both times), so a skewed clock here does not matter.
  const lifetime = Date.parse(String(expiresAt)) - Date.parse(String(createdAt))
  if (
    // Well-formed: it goes into the app link through encodeURIComponent, which throws on a lone surrogate.
    typeof id == 'string' &&
    id.isWellFormed() &&
    typeof createdAt == 'string' &&
    typeof expiresAt == 'string' &&
    lifetime >= MIN_LIFETIME &&
    onService(pollingUrl) &&
    onService(imageUrl) &&
    (data === undefined || typeof data == 'string')
  ) {
    return { id, createdAt, expiresAt, pollingUrl, authImages: { [imageKind]: imageUrl }, authImagesData: data ? { [imageKind]: data } : undefined }
  }
  return MALFORMED
}

/**
 * One long poll of the challenge status (`pollingUrl`, as the service gave it, with its
 * polling secret): what it found, or a Failure for any other status, and for a poll still
 * unanswered a little after the code's deadline.
 */
export const pollStatus = (pollingUrl: string, deadline: number, signal: AbortSignal): Promise<PollOutcome> =>
  send<PollOutcome>({
    url: pollingUrl,
    // Never from an HTTP cache: each poll asks the service afresh.
    init: { ...TO_THE_SERVICE, cache: 'no-store' },
    signal,
    // 204, or another 2xx but 200: not signed yet.
    read: ({ token }, res) => (res.status != 200 ? 'pending' : typeof token == 'string' && token ? { token } : MALFORMED),
    answers: { 404: 'unknown', 410: 'expired' },
    refused: refusal(() => false),
    limit: deadline + POLL_MARGIN - Date.now(),
  })
