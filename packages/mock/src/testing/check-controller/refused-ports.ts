// The ports a browser will not connect to: the Fetch standard's "bad ports" (1, 6000, 6665 to
// 6669, …), which Node's fetch (undici) refuses as browsers do, before any connection, with the
// cause "bad port". An app on one answers curl, but the embed can never reach it, so the advice
// is another port, not a question about the app. The list is fetch's own, not copied here.

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
  return `port ${url.port} is one browsers and fetch refuse to connect to (a "bad port" of the Fetch standard), so the embed could never reach it either: use another port`
}
