// The CDN entry, and the only module with side effects: it sets the one global, mounts
// what is on the page, and follows the page as single-page apps add and remove widgets.
import { pageDefaults } from './config.js'
import { get, mount, OPTIONS, scan, sweep, version } from './index.js'

declare global {
  /** The CDN build's API: the same as the module's exports. A `var`, so `ServiceAuth.mount(...)` and `window.ServiceAuth` are both typed. */
  var ServiceAuth: { mount: typeof mount; get: typeof get; scan: typeof scan; sweep: typeof sweep; version: string; OPTIONS: typeof OPTIONS } | undefined
}

// Included twice, or beside another copy? The first one owns the page.
if (!self.ServiceAuth) {
  self.ServiceAuth = { mount, get, scan, sweep, version, OPTIONS }
  // The script tag's own data-service-api is the default of every widget on the page, so that a
  // page names its service once. Read now: document.currentScript is this script only while it runs.
  pageDefaults.api = document.currentScript?.getAttribute(OPTIONS.api.attribute) || pageDefaults.api
  const update = () => {
    sweep()
    scan()
  }
  // Mounting comes first, so that the challenge requests of the widgets already on the page are
  // under way before anything else this script does at start-up.
  update()
  // Observing from wherever the script sits mounts each widget as the parser inserts it, so
  // the code can show before the rest of the page has loaded. Records are not walked: one
  // selector query per batch is cheaper than visiting every added node, and by the time the
  // batch is seen, a node moved within the page is connected again and is left alone.
  new MutationObserver(update).observe(document, { childList: true, subtree: true })
}
