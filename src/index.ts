import { createSession, type Handle } from './session'
import type { Options } from './config'

export type { Handle } from './session'
export type { Options } from './config'
export type { Texts } from './i18n'
export type { EventDetails, ErrorReason } from './events'

const handles = new Map<Element, Handle>()

/** The version of this build, e.g. `"1.0.0"`. */
export const version: string = __VERSION__

/**
 * Turns `el` into a QR sign-in; options override its `data-service-*` attributes.
 * Mounting an element twice returns the first handle.
 * @example const handle = mount(document.querySelector('#login')!, { authUrl: '/auth/controller' })
 */
export const mount = (el: HTMLElement, options?: Options): Handle =>
  handles.get(el) || handles.set(el, createSession(el, options, () => handles.delete(el))).get(el)!

/** The handle of a mounted element, if any. @example get(el)?.stop() */
export const get = (el: Element): Handle | undefined => handles.get(el)

/** Mounts every `[data-service-auth]` element in `root`. @example scan(dialog) */
export const scan = (root: ParentNode = document): Handle[] =>
  [...root.querySelectorAll<HTMLElement>('[data-service-auth]')].map((el) => mount(el))

/** Destroys every mounted widget whose element has left the page. */
export const sweep = (): void => handles.forEach((handle, el) => el.isConnected || handle.destroy())
