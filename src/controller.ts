import { httpUrl, type Config } from './config'
import { failure, send } from './http'

/** Where the browser goes after sign-in; null means "reload this page". */
export type Next = URL | null

/**
 * Hands the signed token to the integrator's controller and works out where to go next:
 * a JSON `{location}` wins, then the URL a redirect ended on, else a reload.
 * A controller that cannot be reached (or redirects to another origin) fails as `network`.
 */
export function confirm({ header, authUrl }: Config, token: string, signal: AbortSignal): Promise<Next> {
  const init = {
    headers: {
      Accept: 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      [header]: /^authorization$/i.test(header) ? 'Bearer ' + token : token,
    },
    // Cookies go along, as `credentials` defaults to same-origin. In same-origin mode fetch
    // fails rather than follow a redirect to another origin, so the token is never replayed there.
    mode: 'same-origin',
  } as const
  return send(authUrl, init, signal, (res, body) => {
    const location = body?.location
    const next = location ? httpUrl(location) : res.redirected ? httpUrl(res.url) : null
    if (res.ok && next !== undefined) return next
    throw failure(res.ok ? 'location' : 'controller', res)
  })
}

/** Goes where the controller said. */
export const follow = (next: Next): void => (next ? location.assign(next.href) : location.reload())
