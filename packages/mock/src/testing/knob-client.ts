// The test kit's side of the mock's /__knobs/ endpoints: the requests, and what a refusal says,
// turned into a TestKitError that names the mock and what to do.
import { TestKitError } from './errors.js'

export class KnobClient {
  constructor(
    /** The mock's base URL, no trailing slash. */
    readonly base: string,
  ) {}

  /** GET without a body, POST with one (or `method`); a mock that cannot be reached is a TestKitError. */
  async send(path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST'): Promise<Response> {
    try {
      return await fetch(`${this.base}/__knobs/${path}`, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    } catch (error) {
      // fetch's own message is "fetch failed"; its cause says why (ECONNREFUSED, ENOTFOUND...).
      const cause = ((error as Error).cause as { code?: string } | undefined)?.code ?? (error as Error).message
      throw new TestKitError(`the mock service at ${this.base} cannot be reached (${cause})`)
    }
  }

  /** The answer's JSON, when it has the status expected; else the refusal, `what` saying what was asked. */
  async json<T>(res: Response, status: number, what: string): Promise<T> {
    if (res.status !== status) throw await this.refused(res, what)
    return (await res.json()) as T
  }

  /** Says why the mock refused: no knobs, or the problem's detail. */
  async refused(res: Response, what: string): Promise<TestKitError> {
    const text = await res.text()
    // A mock without knobs answers their 404 as it does any unknown address, in problem JSON; a
    // 404 of a knob (an unknown challenge, say) is told apart by the settings, which always exist.
    if (res.status === 404 && (!text.includes('"status"') || (await this.send('config').catch(() => undefined))?.status === 404)) {
      return noKnobs(this.base)
    }
    return new TestKitError(`${what}: the mock service answered ${res.status}: ${detailOf(text)}`)
  }
}

/** The refusal of a mock started without its knobs. */
export function noKnobs(base: string): TestKitError {
  return new TestKitError(`the mock service at ${base} has no knobs: start it with them on (not --no-knobs, not SERVICE_KNOBS=0)`)
}

/** The problem JSON's detail, or the text as it is. */
export function detailOf(text: string): string {
  try {
    return (JSON.parse(text) as { detail?: string }).detail ?? text
  } catch {
    return text
  }
}
