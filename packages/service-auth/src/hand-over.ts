// The hand-over to the integrator's controller: the signed token goes there, and the answer
// says where the browser goes next.
import { toUrl, type Config } from './config.js'
import { failure, send } from './http.js'

/** Where the browser goes after sign-in; null means "reload this page". */
export type Next = URL | null

/**
 * Hands the signed token to the integrator's controller and works out where to go next:
 * a JSON `{location}` wins, then the URL a redirect ended on, else a reload. A location that is
 * not http(s) fails as `location`. A controller that cannot be reached (or redirects to another
 * origin) fails as `network`, and any status but 2xx as `controller`.
 */
export const handOver = (config: Config, token: string, signal: AbortSignal): Promise<Next> =>
  send<Next, { location: unknown }>({
    url: config.authUrl,
    init: {
      headers: {
        Accept: 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        [config.authHeader]: /^authorization$/i.test(config.authHeader) ? 'Bearer ' + token : token,
      },
      // Cookies go along, as `credentials` defaults to same-origin. In same-origin mode fetch
      // fails rather than follow a redirect to another origin, so the token is never replayed there.
      mode: 'same-origin',
      // Never from an HTTP cache: the token is single-use, and so is the answer.
      cache: 'no-store',
      signal,
    },
    read: (body, res) => {
      const next = body.location ? toUrl(body.location) : res.redirected ? toUrl(res.url) : null
      if (next === undefined) throw failure('location', res)
      return next
    },
    refused: () => 'controller',
  })
