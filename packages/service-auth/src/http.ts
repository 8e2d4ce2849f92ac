import { ServiceAuthFailure } from './failure.js'
import { SECOND } from './timing.js'
import { LARGEST_ANSWER as LIMIT } from './wire/answer.js'

/** How long any request may take: a connection a proxy holds open must not freeze the widget. */
const REQUEST_LIMIT = 30 * SECOND
/**
 * The most of an answer the widget reads (defined in wire/, where the controller check reads it
 * too). A challenge is a few KB, its inline images included: a body that says it is longer, or
 * goes on past this, is a bad answer, and is not downloaded. A local name, which the minified
 * bundle declares once: esbuild writes an imported constant out at each use, which made the IIFE
 * 6 B longer (and its pinned hash another) for nothing; this way it is byte for byte the same.
 */
const LARGEST_ANSWER = LIMIT

/** A problem's own words (RFC 7807 `detail`, else `title`), for the console: strings only. */
interface Problem {
  detail: unknown
  title: unknown
}

export interface Request<T, Body extends object = Record<string, unknown>> {
  url: string | URL
  /** Its `signal` is required: aborting it rejects the request with the signal's reason. */
  init: RequestInit & { signal: AbortSignal }
  /**
   * What a 2xx answer means, from its JSON body and the response. `Body` is the shape the other
   * side promises, which nothing has checked: any field may be missing (a body that is not a
   * JSON object reads as an empty one), or of another type, so `read` checks each field it uses,
   * and throws a ServiceAuthFailure for an answer it cannot use (`malformed()`).
   */
  read: (body: Partial<Body>, res: Response) => T
  /** Statuses besides 2xx that are answers rather than failures, and what each means. */
  outcomes?: Record<number, T>
  /**
   * The failure another status is, from the answer and its problem's own words (`detail`, else
   * `title`), if it has any; for none (or without `refused`), `service`, which the widget retries
   * by itself.
   */
  refused?: (res: Response, problem?: string) => ServiceAuthFailure | false
  /** How long the request may take, in ms; 30 s at most, and by default. */
  limit?: number
  /** The console line for no answer at all, where there is more to say than the network tab does. */
  unreachable?: string
}

/**
 * fetch(), and what the answer means. A network error, or no answer within the limit, fails as
 * `network`; an answer over the size limit as `response`, for good. What `read` and `refused`
 * throw is passed on as it is: a ServiceAuthFailure they mean, or a bug of ours, which must not
 * pass for the network's (the widget would retry it for good, as "Reconnecting…") but reach the
 * widget as `internal`.
 */
export const send = async <T, Body extends object = Record<string, unknown>>({
  url,
  init,
  read,
  outcomes = {},
  refused,
  limit = REQUEST_LIMIT,
  unreachable,
}: Request<T, Body>): Promise<T> => {
  // On a timer of the page's own (not AbortSignal.timeout), which tests and fake clocks control too.
  const { signal } = init
  const timeout = new AbortController()
  const timer = setTimeout(() => timeout.abort(), Math.min(limit, REQUEST_LIMIT))
  let res: Response
  let json: unknown
  // The body's length as its header says, or as much of it as came before it passed the limit.
  let size = 0
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.any([signal, timeout.signal]) })
    size = Number(res.headers.get('content-length'))
    // Only JSON is read, its type in any case (a redirect that ended on an HTML page has nothing
    // for the widget), and none that says it is too long: a body left alone is cancelled, which
    // ends its download, as an unread one would keep the connection (and the request's resource
    // timing entry) open.
    if (size > LARGEST_ANSWER || !/json/i.test(res.headers.get('content-type') ?? '')) res.body?.cancel()
    else {
      // Read whatever the status, counted as it comes, up to the limit, where the rest is
      // cancelled. A body that cannot be read is no JSON, unless the caller aborted or the time ran out. Its own
      // reader, not a counting stream piped into new Response(...).json(): the answer reached the
      // first code's task about a millisecond sooner on a first visit (BENCHMARKS.md). Not
      // response.json() when a Content-Length is within the limit: that counts the bytes sent,
      // and a compressed body can decode to far more.
      size = 0
      json = await (async () => {
        const reader = res.body!.getReader()
        const decoder = new TextDecoder()
        let text = ''
        for (;;) {
          const { done, value } = await reader.read()
          if (done) return JSON.parse(text + decoder.decode())
          size += value.length
          if (size > LARGEST_ANSWER) return void reader.cancel()
          // A character may be split between chunks: the decoder keeps its first bytes for the next.
          text += decoder.decode(value, { stream: true })
        }
      })().catch((error) => {
        // Stopped by the caller, or out of time mid-body: not a bad answer, but what stopped it.
        if (signal.aborted || timeout.signal.aborted) throw error
      })
    }
  } catch {
    // Running out of time is a network failure like any other.
    throw signal.aborted ? signal.reason : new ServiceAuthFailure('network', unreachable)
  } finally {
    clearTimeout(timer)
  }
  if (size > LARGEST_ANSWER)
    throw new ServiceAuthFailure('response', `an answer of ${size} B or more (${res.status}) is over ${LARGEST_ANSWER / 1024} KB.`, res, true)
  const body: Partial<Body & Problem> = json && typeof json == 'object' ? json : {}
  if (res.status in outcomes) return outcomes[res.status]!
  if (!res.ok)
    throw (
      refused?.(res, [body.detail, body.title].find((words) => typeof words == 'string' && words) as string | undefined) ||
      new ServiceAuthFailure('service', '', res)
    )
  return read(body, res)
}
