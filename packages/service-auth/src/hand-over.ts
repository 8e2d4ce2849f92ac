// The hand-over to the integrator's controller: the signed token goes there, and the answer
// says where the browser goes next.
import { toUrl, type Config } from './config.js'
import { ServiceAuthFailure } from './failure.js'
import { send } from './http.js'

/** Where the browser goes after sign-in; null when the controller named no place. */
export type Next = URL | null

/**
 * Hands the signed token to the integrator's controller and works out where to go next:
 * a JSON `{location}` wins, then the URL a redirect ended on, else nowhere (null). A location
 * that is not http(s) fails as `location`, a controller that cannot be reached (or redirects to
 * another origin) as `network`, and any status but 2xx as `controller`; each failure's message
 * says what the controller should answer, in its own words where it gave any, without the token
 * or any part of it.
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
      if (next === undefined) throw new ServiceAuthFailure('location', "the controller's location is not http(s).", res)
      return next
    },
    // A controller that echoes what it was sent must not bring the token to the console, whole
    // or in part (a console line may be sent on: error trackers collect them): any run of 16
    // letters, digits, '_' or '-' is taken for a part of it (its header, its claims, its
    // signature) or for another secret, as words are shorter; a shorter run of 4 or more that is
    // found in the token is a part cut small (a word is in a token's base64 by chance once in
    // tens of thousands).
    refused: (res, problem) =>
      new ServiceAuthFailure(
        'controller',
        `the controller refused the sign-in (${res.status}): ${problem?.replace(/[\w-]{4,}/g, (run) => (run.length > 15 || token.includes(run) ? '…' : run)) || 'no reason given'}`,
        res,
      ),
    // A failed fetch looks the same either way, and a redirect is what integrators try first.
    unreachable: 'no answer from the controller, or it redirected to another origin: answer {"location": "https://…"}.',
  })
