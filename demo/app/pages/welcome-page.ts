// GET /welcome, where a successful sign-in ends, and POST /logout.
import { html } from '../html.js'
import { renderPage } from '../layout.js'
import type { AppHandler } from '../context.js'
import { redirect } from '@service-auth/http'
import { sendPage } from '../send-page.js'

export const welcomePage: AppHandler = (context, { req, res }) => {
  const subject = context.sessions.subjectOf(req.headers.cookie)
  const body =
    subject === undefined
      ? html`<main class="page">
<h1>Not signed in</h1>
<p><a href="/login">Sign in</a></p>
</main>`
      : html`<main class="page">
<h1>Welcome, ${subject}</h1>
<form method="post" action="/logout">
<button type="submit">Sign out</button>
</form>
<form method="post" action="/enrol">
<input type="hidden" name="email" value="${subject}">
<p>Signed in, you may add another phone: its code shows here, as it does for no one else. <button type="submit">Add a phone</button></p>
</form>
</main>`
  sendPage(res, 200, renderPage({ title: subject === undefined ? 'Not signed in' : 'Welcome', lang: 'en', body }))
}

export const logout: AppHandler = (context, { req, res }) => {
  // 303: the browser follows with a GET, so a reload does not post the form again. The login
  // page tells the person it worked.
  redirect(res, 303, '/login?signed-out', { 'Set-Cookie': context.sessions.end(req.headers.cookie) })
}
