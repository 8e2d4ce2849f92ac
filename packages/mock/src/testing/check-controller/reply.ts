// One answer of the app, as the embed reads it (service-auth's http.ts and hand-over.ts): its
// status, the place it names, a refusal's words, and a size the embed fails it for. Where the
// embed goes with it, at the end of redirects too, is Browser.landing's to say; this only reads.
// The embed's size limit comes from service-auth itself, so the two cannot drift apart.
import { LARGEST_ANSWER } from 'service-auth/server'

/** One answer of the app, as the embed reads it. */
export interface Reply {
  /** The HTTP status; 0 when no answer came. */
  status: number
  /**
   * Where it names: a 3xx's `Location`, or a 2xx's JSON `{location}`, absolute and http(s).
   * Whether the embed goes there is `Browser.landing`'s to say (not for a 304, say).
   */
  location: string | undefined
  /**
   * That `Location` or `{location}` as given, when it names no place the embed can go: it is no
   * URL (`http://[::1`), not http(s) (`javascript:…`), or a JSON value other than a string
   * (`{"location": 5}`), then given as its JSON text. (A falsy one, `null` or `0`, is none at all
   * to the embed, as it is here.)
   */
  strayLocation?: { given: string; why: 'not a URL' | 'not http(s)' | 'not a string' }
  /**
   * A 2xx's body that names a location, which the embed does not read: its Content-Type (given
   * here, '' for none) does not say JSON. `given` is that location as JSON text.
   */
  unread?: { given: string; contentType: string }
  /**
   * A 2xx's JSON location as given, when it is relative to a page's path (`welcome`, `?next`): the
   * embed resolves it against the login page, which the check does not know, so `location`,
   * resolved against the URL asked, has the origin right but perhaps not the path.
   */
  relativeLocation?: string
  /** A refusal's problem `detail` (or `title`), when it has one. */
  detail: string | undefined
  /**
   * The size the embed fails the answer for, whatever its status: its `Content-Length`, when that
   * says more than LARGEST_ANSWER, or the bytes of a JSON body read when they went past it. The
   * embed's console gives it ("an answer of … B or more").
   */
  tooLarge?: number
  /** Why no answer came: `no answer within 15 s`, `no answer (ECONNREFUSED)`... */
  error?: string
}

/** What `res`, the answer to `url`, says to the embed, its body read as the embed reads it. */
export async function readReply(res: Response, url: URL): Promise<Reply> {
  // As the embed's http.ts does: a body is read only when its Content-Type says JSON, in any case
  // (a page a redirect ended on has nothing for it), whatever the body is.
  const contentType = res.headers.get('content-type') ?? ''
  const readable = /json/i.test(contentType)
  // As http.ts does too: a Content-Length over the limit fails the answer unread, whatever its
  // type; a JSON body is counted as it comes, and fails once past the limit (a compressed body can
  // decode to more than its Content-Length). A body of another type is not read by the embed, at
  // any size: the check reads it only for a location the embed would miss (`unread`).
  const declared = Number(res.headers.get('content-length'))
  let body = { text: '', over: 0 }
  if (declared > LARGEST_ANSWER) await res.body?.cancel()
  else body = await readBody(res)
  const { text, over } = body
  const tooLarge = declared > LARGEST_ANSWER ? declared : readable && over ? over : undefined
  const json = readable ? parseJson(text) : undefined
  // What the embed does not see: a location in a 2xx's body whose Content-Type is not JSON's.
  const unreadLocation = res.ok && !readable ? field(parseJson(text), 'location') : undefined
  const value = res.ok ? field(json, 'location') : undefined
  const named = is3xx(res.status) ? res.headers.get('location') : typeof value === 'string' ? value : undefined
  // A Location resolves against the URL that answered, as fetch resolves it.
  const resolved = named ? resolve(named, url) : undefined
  // As the embed's hand-over does: only an http(s) location is one it sends the browser to.
  const location = resolved && /^https?:$/.test(resolved.protocol) ? resolved.href : undefined
  // The embed resolves a JSON location against the login page (config.ts's toUrl), on the
  // controller's origin (config.ts refuses a controller elsewhere): only a location relative to
  // a path lands elsewhere from there than here, which resolving it from the root tells.
  const relative = res.ok && location !== undefined && resolve(named!, new URL('/', url))?.href !== location
  return {
    status: res.status,
    location,
    ...(named && location === undefined && { strayLocation: { given: named, why: resolved ? 'not http(s)' : 'not a URL' } }),
    // The embed fails on any other value it takes for one, which is any but a falsy one (hand-over.ts).
    ...(value && typeof value !== 'string' ? { strayLocation: { given: JSON.stringify(value), why: 'not a string' } } : {}),
    ...(relative && { relativeLocation: named! }),
    ...(unreadLocation ? { unread: { given: JSON.stringify(unreadLocation), contentType } } : {}),
    detail: res.status >= 400 ? (stringField(json, 'detail') ?? stringField(json, 'title')) : undefined,
    ...(tooLarge !== undefined && { tooLarge }),
  }
}

export const isOk = (status: number) => status >= 200 && status < 300
/** A status the browser's fetch follows (the Fetch standard's redirect statuses); it hands any other 3xx over as it is. */
export const isRedirect = (status: number) => [301, 302, 303, 307, 308].includes(status)
export const is3xx = (status: number) => status >= 300 && status < 400

/**
 * The body as text, as the embed reads one: no more than LARGEST_ANSWER of it, then the rest is
 * cancelled, so a body without end is not held in memory. Past the limit, the text is '' and
 * `over` the bytes read by then, as the embed counts them; 0 within it.
 */
export async function readBody(res: Response): Promise<{ text: string; over: number }> {
  if (!res.body) return { text: '', over: 0 }
  const chunks: Uint8Array[] = []
  let size = 0
  for await (const chunk of res.body) {
    size += chunk.byteLength
    // Leaving the loop cancels the stream, and with it the connection.
    if (size > LARGEST_ANSWER) return { text: '', over: size }
    chunks.push(chunk)
  }
  return { text: Buffer.concat(chunks).toString('utf8'), over: 0 }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

function field(json: unknown, name: string): unknown {
  return json !== null && typeof json === 'object' ? (json as Record<string, unknown>)[name] : undefined
}

function stringField(json: unknown, name: string): string | undefined {
  const value = field(json, name)
  return typeof value === 'string' ? value : undefined
}

function resolve(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base)
  } catch {
    return undefined
  }
}
