// GET /phone: a stand-in for the service's mobile app. It "scans" a code (pasted, or chosen from
// the codes on screens now), sets itself up for an identity with an enrollment code, and signs
// sign-in codes as that device, through the service's knobs. public/phone-app.js does the work;
// the device id lives in this page's localStorage, as the app would keep it on the phone.
import { html } from '../html.js'
import { renderPage } from '../layout.js'
import type { AppHandler } from '../context.js'
import { sendPage } from '../send-page.js'

export const phonePage: AppHandler = (context, { res }) => {
  const body = html`<main class="page columns" data-service-url="${context.serviceUrl}">
<section class="card" aria-labelledby="phone-heading">
<h1 id="phone-heading">Phone</h1>
<p>This page plays the app on a person's phone.</p>
<p id="device">Not set up yet: scan an enrollment code.</p>
<button id="forget-phone" type="button" hidden>Forget this phone</button>
</section>
<section class="card" aria-labelledby="scan-heading">
<h2 id="scan-heading">Scan</h2>
<label for="scanned">What the camera read</label>
<input id="scanned" type="text" autocomplete="off" spellcheck="false" placeholder="serviceauth:…">
<p class="buttons"><button id="provision" type="button">Set up this phone</button> <button id="sign" type="button">Sign with this phone</button></p>
<p id="phone-status" role="status"></p>
</section>
<section class="card wide" aria-labelledby="codes-heading">
<h2 id="codes-heading">Codes to scan</h2>
<p>Choose one instead of pointing a camera. <button id="look-again" type="button">Look again</button></p>
<h3 id="enrollments-heading">Enrollment codes on screens</h3>
<ul id="enrollments" aria-labelledby="enrollments-heading"></ul>
<h3 id="mailed-enrollments-heading">Enrollment codes in e-mails</h3>
<p>The codes the service e-mailed (in this demo, to its outbox). Only the address's owner reads these: the site shows an enrolled address's code to no one else.</p>
<ul id="mailed-enrollments" aria-labelledby="mailed-enrollments-heading"></ul>
<h3 id="challenges-heading">Sign-in codes</h3>
<p>Only codes on a page still open: one its page has not asked about for 10 s is on no screen.</p>
<ul id="challenges" aria-labelledby="challenges-heading"></ul>
</section>
<p class="wide"><a href="/">All demo pages</a></p>
</main>`
  sendPage(res, 200, renderPage({ title: 'Phone', lang: 'en', body, scripts: [{ src: '/public/phone-app.js' }] }))
}
