// The page's mounted widgets, one per element: mounting, finding, and what the CDN build's
// watcher does as the page adds and removes them (scan and sweep).
import type { Options } from './config.js'
import { createWidget, type Handle } from './widget.js'

const handles = new Map<Element, Handle>()
// Elements whose widget was destroyed: scan() leaves them alone, so the CDN build's watcher does
// not bring back what the page destroyed, while mount() takes one back on purpose. sweep()
// forgets the elements it sweeps: one that comes back into the page is mounted again.
const destroyed = new WeakSet<Element>()
// The CDN build's watch of the mounted elements' boxes (see watchRemovals).
let boxes: ResizeObserver | undefined

/**
 * Whether that watch has seen a mounted element in the page without a box (0 × 0: hidden,
 * `display: contents`, inline), whose removal would change no box: from then on the CDN build
 * sweeps at every change to the page, as it did before the watch. A flag the observer's callback
 * reads at every batch: a plain variable costs it less than a Set's size did. (In a hidden tab,
 * where no ResizeObserver runs, a widget makes no requests, and the first frame after sweeps.)
 */
export let sawBoxless = false

/**
 * Turns `el` into a QR sign-in; options override its `data-service-*` attributes.
 * Mounting a mounted element again with other options (compared by value) restarts it with them;
 * with the same options, or none, it returns the running widget.
 * @example const handle = mount(document.querySelector('#login')!, { authUrl: '/auth/controller' })
 */
export const mount = (el: HTMLElement, options?: Options): Handle => {
  // By value, as JSON: a literal written again (a re-render, an attribute read afresh) is the
  // same options, and what JSON leaves out (undefined, a function) counts as absent. The keys
  // are compared in the order they were written, as the components and the element always
  // write them. No options at all (the CDN script's scan() of every change to the page) leaves
  // a running widget as it is.
  const wanted = JSON.stringify(options)
  let handle = handles.get(el)
  if (!handle || (options && wanted != mountedWith.get(el))) {
    handle?.destroy()
    handle = createWidget(
      el,
      options,
      () => {
        handles.delete(el)
        destroyed.add(el)
        // Not watched once destroyed, which would keep a removed element in memory.
        boxes?.unobserve(el)
      },
      // Before it starts: a listener of its first event (a markup error, at once) finds it with
      // get(), or the element's state, and may destroy it, which then stays destroyed.
      (created) => {
        handles.set(el, created)
        mountedWith.set(el, wanted)
        boxes?.observe(el)
      },
    )
  }
  return handle
}

// What each element's widget was mounted with, as mount() compares it.
const mountedWith = new WeakMap<Element, string | undefined>()

/** The handle of a mounted element, if any. @example get(el)?.stop() */
export const get = (el: Element): Handle | undefined => handles.get(el)

/** Mounts every `[data-service-auth]` element in `root`, `root` itself included, except those whose widget was destroyed. @example scan(dialog) */
export const scan = (root: ParentNode = document): Handle[] =>
  [root, ...root.querySelectorAll('[data-service-auth]')]
    .filter((el): el is HTMLElement => !!(el as Element).matches?.('[data-service-auth]') && !destroyed.has(el as Element))
    .map((el) => mount(el))

/** Destroys every mounted widget whose element has left the page; scan() mounts it again if it comes back. */
export const sweep = (): void =>
  handles.forEach((handle, el) => {
    if (el.isConnected) return
    handle.destroy()
    destroyed.delete(el)
  })

/**
 * The CDN build's watch of removals, from now on: an element that leaves the page loses its box,
 * which a ResizeObserver of the mounted elements hears of in the frame after, and sweeps.
 */
export const watchRemovals = (): void => {
  boxes = new ResizeObserver((entries) => {
    for (const { target, contentRect } of entries) if (target.isConnected && !(contentRect.width || contentRect.height)) sawBoxless = true
    sweep()
  })
}
