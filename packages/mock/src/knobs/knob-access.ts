// Who may use the knobs. They sign any challenge as any phone, read every request and reset the
// service, so a page that reached them could sign a visitor's tab in as the attacker (a login
// CSRF) or wipe the service. They answer pages of the service's own origin and of the origins it
// is given (an app's under test, --knobs-origin), and refuse a request from any other page before it
// acts, whatever its method and content type: a form post or a no-cors fetch needs no preflight,
// so withholding CORS headers alone would let it act unseen. Clients that are not browsers
// (tests, curl, the official clients) send neither Origin nor Sec-Fetch-Site and are let through.
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http'
import { HttpProblem } from '@service-auth/http'
import { checkedOrigin } from '../common/origins.js'

export class KnobOrigins {
  readonly #origins = new Set<string>()

  /** `origins`: `scheme://host[:port]` each; checked (common/origins.ts), so a typo stops the start. */
  constructor(origins: readonly string[] = []) {
    this.add(origins)
  }

  add(origins: readonly string[]): void {
    for (const origin of origins) this.#origins.add(checkedOrigin(origin, 'knobsOrigins'))
  }

  /** The service's own origins: where it listens (as 127.0.0.1 and as localhost) and its public base URL. */
  addOwn(...urls: string[]): void {
    const origins = urls.map((url) => new URL(url).origin)
    this.add([...origins, ...origins.filter((origin) => origin.includes('//127.0.0.1:')).map((origin) => origin.replace('//127.0.0.1:', '//localhost:'))])
  }

  allows(origin: string): boolean {
    return this.#origins.has(origin)
  }
}

/**
 * The CORS headers for a knob request from an allowed page (none for a client that is not a
 * browser); a 403 problem for a request from any other page.
 */
export function knobCorsHeaders(req: IncomingMessage, origins: KnobOrigins): OutgoingHttpHeaders {
  const origin = req.headers.origin
  if (origin !== undefined) {
    // `null` (a sandboxed frame, a file: page) is no origin at all, and so never allowed.
    if (!origins.allows(origin)) throw refused(`the page at ${origin}`)
    return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': 'Retry-After', Vary: 'Origin' }
  }
  // Browsers leave Origin off some cross-site GETs (a link, an image); Sec-Fetch-Site still says where they come from.
  const site = req.headers['sec-fetch-site']
  if (site !== undefined && site !== 'same-origin' && site !== 'none') throw refused(`a ${site} page`)
  return { Vary: 'Origin' }
}

const refused = (who: string) =>
  new HttpProblem(403, `The knobs do not answer ${who}: only the service's own origin and those named with --knobs-origin (SERVICE_KNOBS_ORIGIN) may use them.`)
