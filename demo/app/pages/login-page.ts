// GET /login: the integrator's sign-in page, beside a stand-in for the user's phone, a QA panel
// that makes the service misbehave, and the widget's events as they happen.
import { html } from '../html.js'
import { EVENT_LOG, renderPage } from '../layout.js'
import type { AppHandler } from '../context.js'
import { renderWidget } from '../widget-markup.js'
import { sendPage } from '../send-page.js'

export const loginPage: AppHandler = (context, { res, url }) => {
  // Where sign-out lands: a fixed line, whoever crafts the link, so it says nothing untrue.
  const signedOut = url.searchParams.has('signed-out')
  const body = html`<main class="page login">
<section class="card" aria-labelledby="sign-in-heading">
${
  signedOut
    ? html`<p class="notice" id="signed-out">You have signed out.</p>
`
    : ''
}<h1 id="sign-in-heading">Sign in</h1>
<p>Scan the code with the app on your phone.</p>
${renderWidget({
  'data-service-key': context.apiKey,
  'data-service-auth-url': '/auth/controller',
  'data-service-api': context.serviceUrl,
})}
</section>
<section class="card phone" aria-label="Phone" data-service-url="${context.serviceUrl}">
<h2>Phone</h2>
<p>No phone at hand? This sets up a demo phone for the name below (enrollment, then the phone redeems the code) and signs the code shown, as the app would, through the service's test knobs.</p>
<label for="phone-identifier">Sign in as</label>
<input id="phone-identifier" type="text" value="user@example.com" autocomplete="off">
<button id="sign-with-phone" type="button" aria-disabled="true">Sign with phone</button>
<p id="phone-status" role="status">Waiting for a code.</p>
</section>
<section class="card qa" id="qa-panel" aria-labelledby="qa-heading" data-service-url="${context.serviceUrl}">
<h2 id="qa-heading">QA panel</h2>
<p>Put the service into a failure mode and watch the widget.</p>
<p class="buttons">
<button id="qa-slow" type="button">Slow: 3 s per request</button>
<button id="qa-500" type="button">Fail: 500</button>
<button id="qa-429" type="button">Rate-limit: 429</button>
<button id="qa-expire" type="button" aria-disabled="true">Expire now</button>
</p>
<label for="qa-identifier">Identity</label>
<input id="qa-identifier" type="text" value="user@example.com" autocomplete="off">
<p class="buttons">
<button id="qa-lock" type="button">Lock the identity</button>
<button id="qa-unlock" type="button">Unlock</button>
<button id="qa-delete" type="button">Delete the identity</button>
</p>
<p id="qa-status" role="status">The service behaves.</p>
</section>
<section class="card events" aria-labelledby="events-heading">
<h2 id="events-heading">Widget events</h2>
<ol id="event-log"></ol>
</section>
</main>`
  const page = renderPage({
    title: 'Sign in',
    lang: 'en',
    body,
    // The listeners go first, so not even the first event is missed.
    scripts: [EVENT_LOG, { src: '/public/phone.js' }, { src: '/public/qa-panel.js' }, { src: '/service-auth.de.js' }, { src: '/service-auth.js' }],
    stylesheets: [{ href: '/service-auth.css' }],
  })
  // no-cache, not no-store: revalidated, but eligible for the back/forward cache like a real login page.
  sendPage(res, 200, page, { headers: { 'Cache-Control': 'no-cache' } })
}
