// GET /: where to go in the demo: the journey's pages, then the widget set-ups worth trying.
import { html } from '../html.js'
import { renderPage } from '../layout.js'
import type { AppHandler } from '../context.js'
import { SET_UPS } from '../fixture-set-ups.js'
import { sendPage } from '../send-page.js'

type Link = [href: string, label: string]

const PAGES: Link[] = [
  ['/enrol', 'Enrol: add your phone with an e-mail address'],
  ['/phone', 'Phone: the app, to scan codes and sign'],
  ['/login', 'Sign in, with the QA panel'],
  ['/welcome', 'Welcome: who is signed in'],
]

// The bare /fixture page takes the widget's settings from the query (see demo/README.md).
const SET_UP_LINKS: Link[] = SET_UPS.map((setUp) => ['/fixture?' + setUp.query, setUp.label])

const list = (links: Link[]) => html`<ul>
${links.map(
  ([href, label]) => html`<li><a href="${href}">${label}</a></li>
`,
)}</ul>`

export const indexPage: AppHandler = (context, { res }) => {
  const body = html`<main class="page">
<h1>Service auth demo</h1>
<p>An example site that signs people in with the embed, against a mock service at <code>${context.serviceUrl}</code>.
Enrol an address, set the phone up with the code, then sign in.</p>
<section aria-labelledby="pages-heading">
<h2 id="pages-heading">Pages</h2>
${list(PAGES)}
</section>
<section aria-labelledby="set-ups-heading">
<h2 id="set-ups-heading">Widget set-ups</h2>
<p>Sign in on any of them with the phone page.</p>
${list(SET_UP_LINKS)}
</section>
</main>`
  sendPage(res, 200, renderPage({ title: 'Service auth demo', lang: 'en', body }))
}
