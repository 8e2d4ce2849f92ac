// GET /enrol and POST /enrol: a person adds their phone. The site enrolls the e-mail address at
// the service (server-side, signed). A new address becomes a user of this site and sees its
// enrollment QR code, with the e-mail the service would have sent beside it; so does the person
// signed in as the address. Anyone else typing an address that is enrolled already sees no code:
// it goes to that address only (phone-enrolment.ts), or the form would hand anyone's account to
// whoever types their address.
import type { ServerResponse } from 'node:http'
import { parseForm, readBody } from '@service-auth/http'
import type { Enrollment } from 'service-auth/server'
import type { AppHandler } from '../context.js'
import { readableDate } from '../dates.js'
import { html, type SafeHtml } from '../html.js'
import { renderPage } from '../layout.js'
import { EMAIL, enrolPhone } from '../phone-enrolment.js'
import { sendPage } from '../send-page.js'
import { sentEmailFor, type SentEmail } from '../service-outbox.js'

export const enrolForm: AppHandler = (context, { req, res }) => send(res, 200, form(context.sessions.subjectOf(req.headers.cookie) ?? ''))

export const enrol: AppHandler = async (context, { req, res }) => {
  const email = (parseForm(await readBody(req), req.headers['content-type']).get('email') ?? '').trim()
  if (!EMAIL.test(email) || email.length > 254) return send(res, 400, form(email, 'Enter an e-mail address, like ada@example.com.'))
  const outcome = await enrolPhone(context, email, { signedInAs: context.sessions.subjectOf(req.headers.cookie), emailShown: true })
  if ('shown' in outcome) return send(res, 200, enrolled(outcome.shown, await sentEmailFor(context.serviceUrl, outcome.shown.id)))
  // An address is all this form takes, so an enrolled one always has somewhere to send the code.
  send(res, 200, emailed('emailedTo' in outcome ? outcome.emailedTo : email))
}

function form(email = '', error?: string): SafeHtml {
  return html`<main class="page">
<h1>Add your phone</h1>
<p>A new address gets its enrollment code here. For an address that is enrolled already, the code goes to that address by e-mail, unless you are signed in as it.</p>
<form method="post" action="/enrol" class="card">
<label for="email">E-mail address</label>
<input id="email" name="email" type="email" value="${email}" autocomplete="email" required${error ? html` aria-invalid="true" aria-describedby="email-error"` : ''}>
${error ? html`<p id="email-error" class="error">${error}</p>` : ''}
<button type="submit">Enrol</button>
</form>
<p><a href="/">All demo pages</a></p>
</main>`
}

function enrolled(enrollment: Enrollment, email: SentEmail | undefined): SafeHtml {
  return html`<main class="page columns">
<section class="card" aria-labelledby="code-heading">
<h1 id="code-heading">Scan this code with the app</h1>
<img class="qr" alt="Enrollment QR code" src="data:image/png;base64,${enrollment.base64ImageData}">
<p>For <strong>${enrollment.identity.identifier}</strong>. It works once, until <time datetime="${enrollment.expiresAt}">${readableDate(enrollment.expiresAt)}</time>.</p>
<p>No phone at hand? The <a href="/phone">phone page</a> stands in for the app. Then <a href="/login">sign in</a>.</p>
</section>
<section class="card" aria-labelledby="email-heading">
<h2 id="email-heading">The e-mail that would have been sent</h2>
${
  email
    ? html`<dl class="email">
<dt>To</dt><dd>${email.to}</dd>
<dt>Subject</dt><dd>${email.subject}</dd>
<dt>Attachments</dt><dd>${email.attachments.map((attachment) => attachment.filename).join(', ')}</dd>
</dl>
<pre class="email-text">${email.text}</pre>`
    : html`<p>The service's outbox could not be read (its knobs are off?).</p>`
}
</section>
<p class="wide"><a href="/enrol">Enrol another address</a> · <a href="/">All demo pages</a></p>
</main>`
}

function emailed(email: string): SafeHtml {
  return html`<main class="page">
<section class="card" aria-labelledby="emailed-heading">
<h1 id="emailed-heading">Check your e-mail</h1>
<p><strong>${email}</strong> is enrolled already. We have sent a code to add another phone to that address; it is not shown here, so nobody can add a phone to someone else's account by typing their address.</p>
<p>Signed in as ${email}? Then this page shows the code: <a href="/login">sign in</a> and add your phone from your welcome page.</p>
<p>In this demo, e-mails land in the service's outbox: the <a href="/phone">phone page</a> lists the codes in it, as the person who reads that mailbox would find them.</p>
</section>
<p><a href="/enrol">Enrol another address</a> · <a href="/">All demo pages</a></p>
</main>`
}

function send(res: ServerResponse, status: number, body: SafeHtml): void {
  sendPage(res, status, renderPage({ title: 'Add your phone', lang: 'en', body }))
}
