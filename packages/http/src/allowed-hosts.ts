// The Host names the mock's servers answer to, against DNS rebinding. A page on evil.example
// whose name the attacker then points at 127.0.0.1 is same-origin with the server: the browser
// lets it read every answer, and its Origin passes any origin check. What it cannot change is
// the Host header, which still names the attacker's domain. Vite and webpack-dev-server check
// it for the same reason (CVE-2025-24010, CVE-2018-14732).
import type { IncomingMessage } from 'node:http'
import { HttpProblem } from './problem.js'

/** Host names with the port they must come with, or any port when the entry named none. */
export class AllowedHosts {
  readonly #exact = new Set<string>()
  readonly #anyPort = new Set<string>()

  /** `entries`: `example.test` (any port) or `example.test:8081`; checked, so a typo stops the start. */
  constructor(entries: readonly string[] = []) {
    for (const entry of entries) {
      const url = parsedHost(entry)
      if (!url) throw new Error(`allowedHosts: ${JSON.stringify(entry)} is not a host name, or a host name and port.`)
      if (/:\d+$/.test(entry)) this.#exact.add(url.host)
      else this.#anyPort.add(url.hostname)
    }
  }

  /** The service's own names: where it listens (as 127.0.0.1 and as localhost) and its public base URL. */
  addOwn(...urls: string[]): void {
    for (const text of urls) {
      const url = new URL(text)
      this.#exact.add(url.host)
      if (url.hostname === '127.0.0.1') this.#exact.add(`localhost${url.port ? ':' + url.port : ''}`)
    }
  }

  allows(host: string | undefined): boolean {
    const url = host === undefined ? undefined : parsedHost(host)
    return url !== undefined && (this.#exact.has(url.host) || this.#anyPort.has(url.hostname))
  }
}

/** A 403 problem, before anything else happens, for a request whose Host is none of the allowed. */
export function refuseForeignHost(req: IncomingMessage, hosts: AllowedHosts): void {
  if (hosts.allows(req.headers.host)) return
  throw new HttpProblem(
    403,
    `This server does not answer to the host ${JSON.stringify(req.headers.host ?? '')}: a page on another name must not reach it (DNS rebinding). Name the host with --allowed-hosts (SERVICE_ALLOWED_HOSTS) or baseUrl if it is yours.`,
  )
}

/** `host` or `host:port` as the URL parser reads it (lower case, IPv6 in brackets), or undefined. */
function parsedHost(text: string): URL | undefined {
  if (!text || /[/?#@\\\s]/.test(text)) return undefined
  try {
    const url = new URL(`http://${text}`)
    return url.pathname === '/' ? url : undefined
  } catch {
    return undefined
  }
}
