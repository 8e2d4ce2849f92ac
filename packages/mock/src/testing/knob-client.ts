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
      throw new TestKitError(`the mock service at ${this.base} cannot be reached (${(error as Error).message})`)
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
    if (res.status === 404 && !text.includes('"status"')) return new TestKitError(`the mock service at ${this.base} has no knobs: start it with them on`)
    return new TestKitError(`${what}: the mock service answered ${res.status}: ${detailOf(text)}`)
  }
}

/** The problem JSON's detail, or the text as it is. */
export function detailOf(text: string): string {
  try {
    return (JSON.parse(text) as { detail?: string }).detail ?? text
  } catch {
    return text
  }
}
