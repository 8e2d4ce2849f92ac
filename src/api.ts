import { toUrl, type Config } from './config.js'
import { failure, send } from './http.js'

/** A challenge as the widget uses it, after validation. */
export interface Challenge {
  id: string
  expiresAt: string
  /**
   * When it expires (epoch ms, on this browser's clock): now plus its lifetime as the service's own
   * clock measures it, so a skewed client clock does not matter.
   */
  deadline: number
  /** The `pollingUrl` sent, where its status is long-polled (named apart so that build.mjs can shorten it). */
  statusUrl: string
  /** A `data:` URL or an http(s) URL of the QR image. */
  image: string
}

// A poll may outlast the code's deadline by this much, for the service's own clock and the
// network; then it is given up, and the code is found expired and replaced.
const POLL_MARGIN = 3000

/**
 * `POST {api}/v1/entity/challenges`. Unsigned on purpose: the API secret never reaches a browser.
 * Among the 4xx only 429 is worth retrying: the others (400, 401, 403 above all) mean the key,
 * origin or API URL is wrong, which will not get better by itself, so they are `rejected`.
 */
export const createChallenge = (config: Config, signal: AbortSignal): Promise<Challenge> =>
  send(
    config.api + '/v1/entity/challenges',
    {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      // authType is only sent when the markup names one, as the incumbent embed did.
      body: JSON.stringify({ key: config.apiKey, authType: config.challengeType, returnAuthImageData: config.imageData }),
      // The service is a third party: even where it shares this page's origin, it gets no cookies.
      credentials: 'omit',
      // Nor is a redirect an answer of the service's: followed, it would make this page send
      // requests wherever the service names (its own origin's paths, say). It fails as a network error.
      redirect: 'error',
      // The default cache mode, not no-store, on purpose: under no-store Chromium skips its CORS
      // preflight cache, so every new code would cost a preflight and a POST, not one request.
      // (A POST's answer never comes from an HTTP cache anyway.)
    },
    signal,
    toChallenge(config),
    (status) => (status < 500 && status != 429 ? 'rejected' : 'service'),
  )

/**
 * Reads the challenge in a response body, if every field the widget relies on is there and sane.
 * The service is not trusted: its URLs are used only when they are http(s) under its own base URL
 * (`data-service-api`), so it cannot make this page send requests (with cookies, or to the
 * controller) anywhere else, even where it shares this page's origin.
 */
const toChallenge =
  (config: Config) =>
  (body: any): Challenge | undefined => {
    const { id, expiresAt, authImages } = body
    const onService = (value: unknown) => {
      const url = toUrl(value)?.href
      if (url?.startsWith(config.api + '/')) return url
    }
    const data = config.imageData && body.authImagesData?.[config.image]
    const image = typeof data == 'string' ? 'data:image/png;base64,' + data : onService(authImages?.[config.image])
    // A kind the service does not offer is the markup's fault, which no retry can mend. (The
    // spec gives image data for the same kinds as URLs, so the URLs' kinds are the ones offered.)
    if (authImages && !authImages[config.image]) {
      config.problem = 'data-service-auth-image is missing or invalid; offered: ' + Object.keys(authImages)
      throw failure('config')
    }
    const statusUrl = onService(body.pollingUrl)
    // By the service's own clock (the spec gives both times). In whole ms: over 999 is a second
    // at least, below which a code is of no use.
    const lifetime = Date.parse(expiresAt) - Date.parse(body.createdAt)
    // An id with a lone surrogate cannot go into a URL (encodeURIComponent throws): a bad answer.
    if (typeof id == 'string' && !/\p{Cs}/u.test(id) && image && statusUrl && lifetime > 999) {
      return { id, expiresAt, deadline: Date.now() + lifetime, statusUrl, image }
    }
  }

/**
 * One long poll of the challenge status: the signed token, or null while not signed yet
 * (204 or another 2xx). Any other status rejects with a Failure carrying it, and so does a poll
 * still unanswered a little after the code's deadline.
 */
export const pollStatus = (url: string, deadline: number, signal: AbortSignal): Promise<string | null> =>
  send(
    url,
    // Never from an HTTP cache: each poll asks the service afresh.
    { credentials: 'omit', cache: 'no-store', redirect: 'error' },
    signal,
    (body, res) => (res.status != 200 ? null : (typeof body.token == 'string' && body.token) || undefined),
    () => 'service',
    undefined,
    deadline + POLL_MARGIN - Date.now(),
  )
