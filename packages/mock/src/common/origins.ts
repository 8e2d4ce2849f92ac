// What an origin given to the mock must be: `scheme://host[:port]`, as a browser sends it in its
// Origin header, since that header is compared with it as text. One definition for every list of
// origins (the keys' allowedOrigins, the knobs' knobsOrigins) and every way to give one (the
// environment, the config file, the command line, startService's options): a value that can never
// equal an Origin header (`http://127.0.0.1:3000/login`, `127.0.0.1:3000`) would start fine and
// then refuse every page, so it stops the start instead, naming itself and the right form.
import { given } from './given.js'

/** The example every message shows. */
const EXAMPLE = 'http://127.0.0.1:3000'

/**
 * `text` as the Origin header a page of it sends: what URL normalises (a trailing slash, upper
 * case, the scheme's default port) is forgiven; anything else is an Error that starts with
 * `named` and the value, and says what to write instead.
 * @example checkedOrigin('http://127.0.0.1:3000/', 'SERVICE_ALLOWED_ORIGINS') // 'http://127.0.0.1:3000'
 */
export function checkedOrigin(text: unknown, named: string): string {
  const found = typeof text === 'string' ? originOf(text) : { problem: `write it as a string, such as ${EXAMPLE}` }
  if ('origin' in found) return found.origin
  throw new Error(`${named} ${given(text)} is not an origin: ${found.problem}.`)
}

function originOf(text: string): { origin: string } | { problem: string } {
  const anyForm = `write it as scheme://host[:port], such as ${EXAMPLE}`
  // `*` parses as a host name; `null` is what sandboxed pages send, and matches none of them.
  if (text.includes('*')) return { problem: `a wildcard matches no page; name each origin, such as ${EXAMPLE}` }
  if (text === 'null') return { problem: anyForm }
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1]?.toLowerCase()
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return { problem: `its scheme must be http or https, as in ${EXAMPLE}` }
  const url = parsed(scheme === undefined ? `http://${text}` : text)
  if (!url?.hostname) return { problem: anyForm }
  if (scheme === undefined) return url.username || url.password ? { problem: anyForm } : { problem: `it has no scheme. Write ${url.origin}` }
  if (url.href === `${url.origin}/`) return { origin: url.origin }
  const extras = [
    url.username || url.password ? 'a user name' : '',
    url.pathname === '/' ? '' : 'a path',
    url.search || text.includes('?') ? 'a query' : '',
    url.hash || text.includes('#') ? 'a fragment' : '',
  ].filter(Boolean)
  const what = extras.length > 1 ? `${extras.slice(0, -1).join(', ')} and ${extras.at(-1)}` : (extras[0] ?? 'more than a scheme, a host and a port')
  return { problem: `it has ${what}. Write ${url.origin}` }
}

function parsed(text: string): URL | undefined {
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}
