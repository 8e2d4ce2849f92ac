// What a person's browser gets when the app refuses a request: a page that says what went
// wrong, with a way back, instead of problem JSON it would show as raw text. Everything else
// (the embed, the pages' scripts, tests, curl) asks for JSON or anything, and keeps problem JSON.
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import type { HttpProblem } from '@service-auth/http'
import { html } from './html.js'
import { renderPage } from './layout.js'
import { sendPage } from './send-page.js'

const TITLES: Record<number, string> = { 404: 'Page not found', 403: 'Not allowed from there' }

/** Whether the request names HTML among what it accepts, as browsers do when they load a page. */
export function wantsHtml(req: IncomingMessage): boolean {
  return /(^|,)\s*text\/html\s*(;|,|$)/.test(req.headers.accept ?? '')
}

export function sendErrorPage(res: ServerResponse, problem: HttpProblem, path: string): void {
  const title = TITLES[problem.status] ?? STATUS_CODES[problem.status] ?? 'Error'
  const body = html`<main class="page">
<h1>${title}</h1>
<p>${problem.detail}</p>
<p class="muted">${problem.status} for <code>${path}</code></p>
<p><a href="/">All demo pages</a></p>
</main>`
  sendPage(res, problem.status, renderPage({ title, lang: 'en', body }), { headers: problem.headers })
}
