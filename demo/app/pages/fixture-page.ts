// GET /fixture?...: a bare page for end-to-end tests and for trying set-ups by hand, built from
// the query (see fixture-options.ts). It loads the built bundle, as integrators do, never the
// sources. A set-up the index links to is titled as the index names it and says what it is for.
import { html } from '../html.js'
import { EVENT_LOG, renderPage, type Script } from '../layout.js'
import type { AppHandler } from '../context.js'
import { readFixtureOptions } from '../fixture-options.js'
import { setUpFor } from '../fixture-set-ups.js'
import { subresourceIntegrity } from '../static-files.js'
import { renderWidget } from '../widget-markup.js'
import { recommendedPolicy } from '../recommended-policy.js'
import { sendPage } from '../send-page.js'

const BUNDLE = 'service-auth.js'
const STYLESHEET = 'service-auth.css'

export const fixturePage: AppHandler = async (context, { req, res, url }) => {
  const options = readFixtureOptions(url.searchParams, { key: context.apiKey, api: context.serviceUrl })
  const widget = renderWidget(options.widgetSettings)

  const content = options.late
    ? html`<template id="late-widget">${widget}</template>
<p><button id="add-widget" type="button">Add widget</button> <button id="remove-widget" type="button">Remove widget</button></p>
<div id="late-widgets"></div>`
    : Array.from(
        { length: options.count },
        () => html`${widget}
`,
      )

  // Hashed per request from the file on disk, so SRI is tested against the real build.
  const bundle: Script = options.sri
    ? { src: '/' + BUNDLE, integrity: await subresourceIntegrity(context.distDir, BUNDLE), crossorigin: 'anonymous' }
    : { src: '/' + BUNDLE }
  const scripts: Script[] = [
    EVENT_LOG,
    ...(options.late ? [{ src: '/public/late.js' }] : []),
    // Language packs go before the script, which looks for them as it mounts.
    ...(await languagePackScripts(context.distDir, options.languagePacks)),
    bundle,
    ...(options.scriptTwice ? [bundle] : []),
  ]

  const stylesheets = options.stylesheetLink
    ? [{ href: '/' + STYLESHEET, integrity: await subresourceIntegrity(context.distDir, STYLESHEET), crossorigin: 'anonymous' as const }]
    : []

  const setUp = setUpFor(url.searchParams)
  const title = setUp?.label ?? 'Widget set-up'
  const settings = [...url.searchParams].map(([name, value]) => `${name}=${value}`).join(', ')
  const purpose = setUp?.purpose ?? (settings ? `A widget built from this address: ${settings}.` : 'The widget with its default settings.')
  const body = html`<main class="page fixture">
<h1>${title}</h1>
<p class="purpose">${purpose}</p>
${content}
<p>Sign in with the <a href="/phone">phone page</a> · <a href="/">All demo pages</a></p>
<ol id="event-log"></ol>
</main>`
  // no-cache, not no-store: the browser revalidates, but may still keep the page in its
  // back/forward cache, as it would a real login page.
  // The README's policy, the embed's files coming from this site (they stand in for the CDN).
  const strict = options.strictCsp ? recommendedPolicy(`http://${req.headers.host}`, new URL(context.serviceUrl).origin) : undefined
  const policy = options.noDataImages ? strict?.map((directive) => directive.replace(' data:', '')) : strict
  sendPage(res, 200, renderPage({ title, lang: options.lang, body, scripts, stylesheets }), { policy, headers: { 'Cache-Control': 'no-cache' } })
}

/**
 * A script tag for each language pack asked for (`languages`: every pack in one file), pinned by
 * its integrity hash as the README's tags are.
 */
function languagePackScripts(distDir: string, names: string[]): Promise<Script[]> {
  return Promise.all(
    names.map(async (name) => {
      const file = `service-auth.${name}.js`
      return { src: '/' + file, integrity: await subresourceIntegrity(distDir, file), crossorigin: 'anonymous' as const }
    }),
  )
}
