// A mock's base URL as the kit's callers give it, checked once for every entry that takes one
// (KnobClient, connectMockService): a number or a URL without its scheme failed later, with
// JavaScript's own "url.replace is not a function" or a fetch failure that named nothing.
import { given } from '../common/given.js'

/**
 * The mock's base URL, without trailing slashes: `url` as a string, if it is an http(s) URL (a
 * string or a URL); else a TypeError that names `option`, as the caller spelt it.
 */
export function mockUrl(url: unknown, option: string): string {
  const must = `${option} must be the mock service's http(s) URL, a string or a URL (e.g. 'http://127.0.0.1:8081')`
  let parsed: URL
  if (url instanceof URL) parsed = url
  else if (typeof url === 'string' && URL.canParse(url)) parsed = new URL(url)
  else throw new TypeError(`${must}, not ${given(url)}.`)
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError(`${must}, not ${given(String(url))}.`)
  // A string as given (its path kept as written); a URL as its href.
  return (typeof url === 'string' ? url : parsed.href).replace(/\/+$/, '')
}
