// The demo the engines' suite runs against: the QA demo with test modes, the React page, and a
// page with a global `scheduler` of its own, as the DHTMLX calendar's script sets one.
import { startDemo, type Demo, html, EVENT_LOG, renderPage, renderWidget } from 'service-auth-demo'
import { reactPages } from '../react-demo.js'

export async function startEnginesDemo(): Promise<Demo> {
  return startDemo({
    testModes: true,
    pages: {
      ...(await reactPages()),
      '/own-scheduler': ({ serviceUrl, apiKey }) =>
        renderPage({
          title: 'A page with its own scheduler',
          lang: 'en',
          body: html`<main>${renderWidget({ 'data-service-key': apiKey, 'data-service-auth-url': '/auth/controller', 'data-service-api': serviceUrl })}</main>`,
          stylesheets: [{ href: '/service-auth.css' }],
          // A classic script before the embed's, as a page's own code would be.
          scripts: [{ src: '/own-scheduler.js' }, EVENT_LOG, { src: '/service-auth.js' }],
        }),
      '/own-scheduler.js': () => 'window.scheduler = { init: function () {} }\n',
    },
  })
}
