import { CALLBACK_ATTRIBUTES, type CallbackEvent } from './config.js'

/**
 * Calls the global functions the markup names (`data-service-callback` and the rest) with each
 * event's detail, so that a page can react without a script of its own, as with Turnstile. A
 * success callback that returns `false` takes over navigation, as cancelling the event does. The
 * name is looked up at each event, so a function defined after the script loaded still counts; a
 * name that is not a function is reported once and changes nothing else. (The attributes are
 * read here rather than in readConfig: they are never options, and nothing else needs them.)
 */
export function listenForCallbacks(el: HTMLElement, signal: AbortSignal): void {
  for (const [event, attribute] of Object.entries(CALLBACK_ATTRIBUTES) as [CallbackEvent, string][]) {
    const name = el.getAttribute(attribute)
    if (!name) continue
    let reported = false
    el.addEventListener(
      'service-auth:' + event,
      (heard) => {
        const callback = (window as unknown as Record<string, unknown>)[name]
        if (typeof callback == 'function') {
          if (callback((heard as CustomEvent).detail) === false) heard.preventDefault()
        } else if (!reported) {
          reported = true
          console.error(`service-auth: ${attribute}="${name}" names no function on window.`)
        }
      },
      { signal },
    )
  }
}
