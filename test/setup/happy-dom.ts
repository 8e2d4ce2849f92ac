// happy-dom lacks the `origin` global that every browser has (WindowOrWorkerGlobalScope.origin,
// the document's own origin, which the embed compares its controller's with): here, as in a
// browser, it is the page's origin. Tests of a document whose origin is not its location's (an
// about:srcdoc frame) run in a browser (e2e/frames.spec.ts).
if (typeof window != 'undefined' && !('origin' in window)) {
  Object.defineProperty(window, 'origin', { get: () => window.location.origin, configurable: true })
}
