import { toUrl, type Config } from './config.js'
import { send } from './http.js'

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
  /** The phone app's URL for this challenge, on touch devices (see `appUrl`). */
  link?: string
}

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
      body: JSON.stringify({ key: config.apiKey, returnAuthImageData: config.imageData }),
    },
    signal,
    toChallenge(config),
    (status) => (status < 500 && status != 429 ? 'rejected' : 'service'),
  )

/** Reads the challenge in a response body, if every field the widget relies on is there and sane. */
const toChallenge =
  (config: Config) =>
  (body: any): Challenge | undefined => {
    const { id, expiresAt } = body
    const data = config.imageData && body.authImagesData?.[config.image]
    const image = typeof data == 'string' ? 'data:image/png;base64,' + data : toUrl(body.authImages?.[config.image])?.href
    const statusUrl = toUrl(body.pollingUrl)?.href
    // In whole ms: over 999 is a second at least, below which a code is of no use.
    const lifetime = Date.parse(expiresAt) - (Date.parse(body.createdAt) || Date.now())
    if (typeof id == 'string' && image && statusUrl && lifetime > 999) {
      return { id, expiresAt, deadline: Date.now() + lifetime, statusUrl, image, link: config.appUrl?.replace('{id}', encodeURIComponent(id)) }
    }
  }

/**
 * One long poll of the challenge status: the signed token, or null while not signed yet
 * (204 or another 2xx). Any other status rejects with a Failure carrying it.
 */
export const pollStatus = (url: string, signal: AbortSignal): Promise<string | null> =>
  send(
    url,
    {},
    signal,
    (body, res) => (res.status != 200 ? null : (typeof body.token == 'string' && body.token) || undefined),
    () => 'service',
  )
