// GET /: where to go in the demo: the journey's pages, then the widget set-ups worth trying.
import { html } from '../html.ts'
import { renderPage } from '../layout.ts'
import type { AppHandler } from '../context.ts'
import { sendPage } from '../send-page.ts'

type Link = [href: string, label: string]

const PAGES: Link[] = [
  ['/enrol', 'Enrol: add your phone with an e-mail address'],
  ['/phone', 'Phone: the app, to scan codes and sign'],
  ['/login', 'Sign in, with the QA panel'],
  ['/welcome', 'Welcome: who is signed in'],
]

// The bare /fixture page takes the widget's settings from the query (see demo/README.md).
const SET_UPS: Link[] = [
  ['/fixture?image-data=false', 'The code loaded from its URL (data-service-image-data="false")'],
  ['/fixture?locale=de&lang=de', 'German'],
  ['/fixture?count=2', 'Two widgets on one page'],
  ['/fixture?late=1', 'A single-page app that adds and removes the widget'],
  ['/fixture?csp=strict&sri=1', 'A strict Content-Security-Policy, and the script with integrity'],
  ['/fixture?theme=dark&style=pure', 'The dark theme, pure style (the code only)'],
  ['/fixture?app-url=serviceauth%3A%2F%2Fchallenge%2F%7Bid%7D', 'On a touch device, the code links to the app'],
]

const list = (links: Link[]) => html`<ul>
${links.map(([href, label]) => html`<li><a href="${href}">${label}</a></li>
`)}</ul>`

export const indexPage: AppHandler = (context, { res }) => {
  const body = html`<main class="page">
<h1>Service auth demo</h1>
<p>An example site that signs people in with the embed, against a mock service at <code>${context.serviceUrl}</code>.
Enrol an address, set the phone up with the code, then sign in.</p>
<h2>Pages</h2>
${list(PAGES)}
<h2>Widget set-ups</h2>
<p>Sign in on any of them with the phone page.</p>
${list(SET_UPS)}
</main>`
  sendPage(res, 200, renderPage({ title: 'Service auth demo', lang: 'en', body }))
}
