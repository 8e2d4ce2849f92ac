import { httpUrl, type Config } from './config'
import { failure, send } from './http'

/** A challenge as the widget uses it, after validation. */
export interface Challenge {
  id: string
  expiresAt: string
  /** Lifetime in ms, from the service's own clock, so a skewed client clock does not matter. */
  lifetime: number
  pollingUrl: string
  /** A `data:` URL or an http(s) URL of the QR image. */
  image: string
}

/**
 * `POST {api}/v1/entity/challenges`. Unsigned on purpose: the API secret never reaches a browser.
 * Among the 4xx only 429 is worth retrying: the others (400, 401, 403 above all) mean the key,
 * origin or API URL is wrong, which will not get better by itself, so they are `rejected`.
 */
export function createChallenge(config: Config, signal: AbortSignal): Promise<Challenge> {
  const init = {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ key: config.key, returnAuthImageData: config.imageData }),
  } as const
  return send(config.api + '/v1/entity/challenges', init, signal, (res, body) => {
    const { status } = res
    const challenge = toChallenge(body, config)
    if (res.ok && challenge) return challenge
    throw failure(res.ok ? 'response' : status < 500 && status != 429 ? 'rejected' : 'service', res)
  })
}

/** The challenge in `body`, if every field the widget relies on is there and sane. */
function toChallenge(body: any, { imageData, image }: Config): Challenge | undefined {
  body = body || {}
  const { id, expiresAt } = body
  const data = imageData && body.authImagesData?.[image]
  const src =
    typeof data == 'string'
      ? 'data:image/png;base64,' + data
      : httpUrl(body.authImages?.[image])?.href
  const pollingUrl = httpUrl(body.pollingUrl)?.href
  const lifetime = Date.parse(expiresAt) - (Date.parse(body.createdAt) || Date.now())
  if (typeof id == 'string' && src && pollingUrl && lifetime >= 1000) {
    return { id, expiresAt, lifetime, pollingUrl, image: src }
  }
}

/**
 * One long poll of the challenge status: the signed token, or null while not signed yet
 * (204 or another 2xx). Any other status rejects with a Failure carrying it.
 */
export function pollStatus(url: string, signal: AbortSignal): Promise<string | null> {
  return send(url, {}, signal, (res, body) => {
    const token = body?.token
    if (res.status != 200) {
      if (res.ok) return null
    } else if (typeof token == 'string' && token) {
      return token
    }
    throw failure(res.ok ? 'response' : 'service', res)
  })
}
