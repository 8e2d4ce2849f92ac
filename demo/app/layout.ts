// The document shell every page shares. Styles and scripts are files under /public/ only:
// the pages must keep working under a Content-Security-Policy without 'unsafe-inline'.
import type { EventDetails } from 'service-auth'
import { attributes, html, type SafeHtml } from './html.js'

/**
 * The widget's events, in the order of a sign-in's life: written as a record of the package's
 * published EventDetails, so that an event the embed adds or drops is a type error here.
 */
const EVENTS: Record<keyof EventDetails, true> = { ready: true, signed: true, success: true, expired: true, error: true }
const EVENT_NAMES = Object.keys(EVENTS)

export interface Script {
  src: string
  integrity?: string
  crossorigin?: 'anonymous'
  /** What the script reads from its own tag (`document.currentScript.dataset`), as `data-*` attributes. */
  data?: Record<string, string>
}

/** The event log of the demo's pages: it records the widget's events, whose names it is handed. */
export const EVENT_LOG: Script = { src: '/public/events.js', data: { names: EVENT_NAMES.join(' ') } }

export interface Stylesheet {
  href: string
  integrity?: string
  crossorigin?: 'anonymous'
}

// The icon is linked so browsers do not ask for /favicon.ico: its 404 would be a console error in every test.
export interface PageParts {
  title: string
  /** Undefined leaves `lang` off, to test the embed's fallback to the browser's languages. */
  lang?: string
  body: SafeHtml
  /** Placed at the end of body, in this order. */
  scripts?: Script[]
  /** Linked in <head>, after the demo's own. */
  stylesheets?: Stylesheet[]
}

export function renderPage({ title, lang, body, scripts = [], stylesheets = [] }: PageParts): string {
  return html`<!doctype html>
<html${attributes({ lang })}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="/public/favicon.svg">
<link rel="stylesheet" href="/public/app.css">
${stylesheets.map(
  (sheet) => html`<link rel="stylesheet"${attributes({ href: sheet.href, integrity: sheet.integrity, crossorigin: sheet.crossorigin })}>
`,
)}</head>
<body>
${body}
${scripts.map(
  (
    script,
  ) => html`<script${attributes({ src: script.src, integrity: script.integrity, crossorigin: script.crossorigin, ...dataAttributes(script.data) })}></script>
`,
)}</body>
</html>
`.text
}

const dataAttributes = (data: Record<string, string> = {}) => Object.fromEntries(Object.entries(data).map(([name, value]) => ['data-' + name, value]))
