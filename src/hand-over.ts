import { toUrl, type Config } from './config.js'
import { send } from './http.js'

/** Where the browser goes after sign-in; null means "reload this page". */
export type Next = URL | null

/**
 * Hands the signed token to the integrator's controller and works out where to go next:
 * a JSON `{location}` wins, then the URL a redirect ended on, else a reload.
 * A controller that cannot be reached (or redirects to another origin) fails as `network`.
 */
export const confirm = (config: Config, token: string, signal: AbortSignal): Promise<Next> =>
  send(
    config.authUrl,
    {
      headers: {
        Accept: 'application/json',
        'X-Requested-With': 'XMLHttpRequest',
        [config.header]: /^authorization$/i.test(config.header) ? 'Bearer ' + token : token,
      },
      // Cookies go along, as `credentials` defaults to same-origin. In same-origin mode fetch
      // fails rather than follow a redirect to another origin, so the token is never replayed there.
      mode: 'same-origin',
      // Never from an HTTP cache: the token is single-use, and so is the answer.
      cache: 'no-store',
    },
    signal,
    (body, res) => (body.location ? toUrl(body.location) : res.redirected ? toUrl(res.url) : null),
    () => 'controller',
    'location',
  )
