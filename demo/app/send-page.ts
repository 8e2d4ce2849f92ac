// Every HTML page of the demo goes out through here, with the headers that keep it from being
// framed: a hostile site could otherwise lay the login or enrol page under buttons of its own
// (clickjacking). X-Frame-Options is for browsers older than frame-ancestors. No Referer leaves
// for another origin either: a page's address is nobody else's business. (`same-origin`, not
// `no-referrer`: under that, a browser's form posts to this site say `Origin: null`, which
// same-origin.ts rightly refuses.)
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http'
import { sendBytes } from '@service-auth/http'

/**
 * What every page's policy says. No fetch directives: pages with a policy of their own (the
 * strict fixture) narrow those, and the rest keep working as integrators' pages without one do.
 */
const EVERY_PAGE = ["frame-ancestors 'none'", "base-uri 'none'", "object-src 'none'", "form-action 'self'"]

/** `own` directives, then each of EVERY_PAGE's that `own` does not already set. */
export function mergePolicy(own: string[] = []): string {
  const named = new Set(own.map((directive) => directive.split(/\s+/)[0]))
  return [...own, ...EVERY_PAGE.filter((directive) => !named.has(directive.split(/\s+/)[0]))].join('; ')
}

export interface PageOptions {
  /** The page's own Content-Security-Policy directives; EVERY_PAGE's are merged in. */
  policy?: string[]
  headers?: OutgoingHttpHeaders
}

export function sendPage(res: ServerResponse, status: number, page: string, { policy, headers = {} }: PageOptions = {}): void {
  sendBytes(res, status, page, 'text/html; charset=utf-8', {
    ...headers,
    'Content-Security-Policy': mergePolicy(policy),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  })
}
