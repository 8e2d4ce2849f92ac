// The ports a browser will not connect to: the Fetch standard's "bad ports" (1, 6000, 6665 to
// 6669, …, common/bad-ports.ts), which Node's fetch (undici) refuses as browsers do, before any
// connection, with the cause "bad port". An app on one answers curl, but the embed can never
// reach it, so the advice is another port, not a question about the app. A failure is known by
// fetch's own verdict, its cause, rather than by the list: the check reports what fetch did.
import { badPortReason } from '../../common/bad-ports.js'

/** The cause's message Node's fetch fails with on such a port. */
const BAD_PORT = 'bad port'

/** Whether fetch failed because the URL's port is one it refuses. */
export function isRefusedPort(error: unknown): boolean {
  return (error as { cause?: { message?: unknown } } | undefined)?.cause?.message === BAD_PORT
}

/** The failure text `Browser.call` gives such an answer (`no answer (bad port)`). */
export const REFUSED_PORT_FAILURE = `no answer (${BAD_PORT})`

/** What to do about it, for the URL that has such a port. */
export function refusedPortAdvice(url: URL): string {
  return `${badPortReason(url.port)}, so the embed could never reach it either: use another port`
}
