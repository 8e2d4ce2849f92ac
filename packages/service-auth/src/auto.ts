// The CDN entry, and the only module with side effects: it sets the one global, mounts
// what is on the page, and follows the page as single-page apps add and remove widgets.
import { pageDefaults } from './config.js'
import { get, mount, OPTIONS, scan, sweep, version } from './index.js'
import { sawBoxless, watchRemovals } from './registry.js'

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
  // A widget whose element leaves the page is destroyed (sweep), in the frame after: see
  // watchRemovals (and sawBoxless, for those it cannot hear of). Not at every change to the page:
  // on a page that changes every frame (a ticking view of 5,000 items), sweeping at each batch was
  // a third of what observing it cost (BENCHMARKS.md).
  watchRemovals()
  // Mounting comes first, so that the challenge requests of the widgets already on the page are
  // under way before anything else this script does at start-up.
  scan()
  // Observing from wherever the script sits mounts each widget as the parser inserts it, so the
  // code can show before the rest of the page has loaded. A batch searches only what it added: a
  // query of the whole document per batch cost 3.9 ms of script a second on that page. A text
  // that changed (the commonest change, a ticking view's) leaves its parent with no element
  // child: then its nodes are not even looked at. Nor are the removed ones: wrapping the
  // browser's lists and nodes for script cost more, in a callback that runs every frame, than
  // sweeping did; so does iterating the records rather than indexing them. The batch sweeps where
  // a record's parent has an element child (elements added, or removed from beside others), and
  // at every batch once the watch of boxes could miss a removal (see sawBoxless). A node moved
  // within the page is connected again by the time either looks, and is left alone; one added
  // and removed within the batch is not mounted.
  new MutationObserver((records) => {
    let elements = false
    for (let i = 0; i < records.length; i++) {
      const record = records[i]!
      if ((record.target as ParentNode).firstElementChild) {
        elements = true
        for (const node of record.addedNodes) if (node instanceof Element && node.isConnected) scan(node)
      }
    }
    if (elements || sawBoxless) sweep()
  }).observe(document, { childList: true, subtree: true })
}
