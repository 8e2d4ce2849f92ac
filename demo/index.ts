// What the repository's end-to-end tests and bench use of the demo app (the package
// service-auth-demo, private): starting it, and the page parts they build pages of their own
// with. Nothing outside the demo reaches into its files by a relative path.
export { startDemo, type Demo, type DemoOptions } from './harness.js'
export type { ExtraPage } from './app/server.js'
export { APP_COLLECTIONS } from './app/collections.js'
export { html } from './app/html.js'
export { EVENT_LOG, renderPage } from './app/layout.js'
export { renderWidget } from './app/widget-markup.js'
export { recommendedPolicy } from './app/recommended-policy.js'
export { SET_UPS } from './app/fixture-set-ups.js'
