// The element the embed turns into a QR sign-in: `data-service-auth` plus its settings.
import { attributes, html, type SafeHtml } from './html.js'

/** `settings` maps full attribute names (`data-service-key`, ...) to values. */
export function renderWidget(settings: Record<string, string>): SafeHtml {
  return html`<div${attributes({ 'data-service-auth': true, ...settings })}></div>`
}
