import { createWidget, type Handle } from './widget.js'
import type { Options } from './config.js'

export type { Handle, State } from './widget.js'
export type { Options } from './config.js'
export type { Texts } from './i18n.js'
export type { EventDetails, ErrorReason, ServiceAuthEventMap } from './events.js'
export type { ChallengeJson, ChallengeStatusJson, CreateChallengeBody } from './wire/challenge.js'

const handles = new Map<Element, Handle>()
// Elements whose widget was destroyed: scan() leaves them alone, so the CDN build's watcher does
// not bring back what the page destroyed, while mount() takes one back on purpose. sweep()
// forgets the elements it sweeps: one that comes back into the page is mounted again.
const destroyed = new WeakSet<Element>()

/** The version of this build, e.g. `"1.0.0"`. */
export const version: string = __VERSION__

/**
 * Turns `el` into a QR sign-in; options override its `data-service-*` attributes.
 * Mounting an element twice returns the first handle.
 * @example const handle = mount(document.querySelector('#login')!, { authUrl: '/auth/controller' })
 */
export const mount = (el: HTMLElement, options?: Options): Handle => {
  let handle = handles.get(el)
  if (!handle) {
    handle = createWidget(el, options, () => {
      handles.delete(el)
      destroyed.add(el)
    })
    handles.set(el, handle)
  }
  return handle
}

/** The handle of a mounted element, if any. @example get(el)?.stop() */
export const get = (el: Element): Handle | undefined => handles.get(el)

/** Mounts every `[data-service-auth]` element in `root`, except those whose widget was destroyed. @example scan(dialog) */
export const scan = (root: ParentNode = document): Handle[] =>
  [...root.querySelectorAll<HTMLElement>('[data-service-auth]')].filter((el) => !destroyed.has(el)).map((el) => mount(el))

/** Destroys every mounted widget whose element has left the page; scan() mounts it again if it comes back. */
export const sweep = (): void =>
  handles.forEach((handle, el) => {
    if (el.isConnected) return
    handle.destroy()
    destroyed.delete(el)
  })
