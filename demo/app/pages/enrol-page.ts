// GET /enrol and POST /enrol: a person adds their phone. The site enrolls the e-mail address at
// the service (server-side, signed), makes it a user of this site, and shows the enrollment QR
// code, with the e-mail the service would have sent beside it.
import type { ServerResponse } from 'node:http'
import { HttpProblem } from '../../common/problem.ts'
import { parseForm, readBody } from '../../common/read-body.ts'
import { ServiceError, type Enrollment } from '../../../src/server/index.ts'
import type { AppHandler } from '../context.ts'
import { readableDate } from '../dates.ts'
import { html, type SafeHtml } from '../html.ts'
import { renderPage } from '../layout.ts'
import { sendPage } from '../send-page.ts'
import { sentEmailFor, type SentEmail } from '../service-outbox.ts'

// The service's own loose check: something, an @, and a host with a dot.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export const enrolForm: AppHandler = (_context, { res }) => send(res, 200, form())

export const enrol: AppHandler = async (context, { req, res }) => {
  const email = (parseForm(await readBody(req), req.headers['content-type']).get('email') ?? '').trim()
  if (!EMAIL.test(email) || email.length > 254) return send(res, 400, form(email, 'Enter an e-mail address, like ada@example.com.'))
  let enrollment: Enrollment
  try {
    ;({ enrollment } = await context.serviceClient.enroll({ identifier: email, sendEmail: true }))
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error
    throw new HttpProblem(502, `The service did not enroll ${email}: ${error.message}`)
  }
  context.users.add(email)
  send(res, 200, enrolled(enrollment, await sentEmailFor(context.serviceUrl, enrollment.id)))
}

function form(email = '', error?: string): SafeHtml {
  return html`<main class="page">
<h1>Add your phone</h1>
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
${email
  ? html`<dl class="email">
<dt>To</dt><dd>${email.to}</dd>
<dt>Subject</dt><dd>${email.subject}</dd>
<dt>Attachments</dt><dd>${email.attachments.map((attachment) => attachment.filename).join(', ')}</dd>
</dl>
<pre class="email-text">${email.text}</pre>`
  : html`<p>The service's outbox could not be read (its knobs are off?).</p>`}
</section>
<p class="wide"><a href="/enrol">Enrol another address</a> · <a href="/">All demo pages</a></p>
</main>`
}

function send(res: ServerResponse, status: number, body: SafeHtml): void {
  sendPage(res, status, renderPage({ title: 'Add your phone', lang: 'en', body }))
}
