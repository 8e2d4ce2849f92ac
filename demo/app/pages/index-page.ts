// GET /: where to go in the demo.
import { html } from '../html.ts'
import { renderPage } from '../layout.ts'
import type { AppHandler } from '../context.ts'
import { sendBytes } from '../../common/respond.ts'

const LINKS: [href: string, label: string][] = [
  ['/login', 'Sign in with a QR code'],
  ['/welcome', 'Welcome page (who is signed in)'],
  ['/fixture', 'Test fixture: one widget'],
  ['/fixture?count=2', 'Test fixture: two widgets'],
  ['/fixture?csp=strict&sri=1', 'Test fixture: strict CSP and Subresource Integrity'],
  ['/fixture?late=1', 'Test fixture: widget added and removed after load'],
]

export const indexPage: AppHandler = (context, { res }) => {
  const body = html`<main class="page">
<h1>Service auth demo</h1>
<p>An example site that signs users in with the embed, against a mock service at <code>${context.serviceUrl}</code>.</p>
<ul>
${LINKS.map(([href, label]) => html`<li><a href="${href}">${label}</a></li>
`)}</ul>
</main>`
  sendBytes(res, 200, renderPage({ title: 'Service auth demo', lang: 'en', body }), 'text/html; charset=utf-8')
}
