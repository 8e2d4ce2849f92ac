import { invalid, CALLBACK_ATTRIBUTES, CALLBACK_EVENTS, type Callbacks } from './config.js'

/**
 * Calls the global functions that the callback attributes name (`data-service-callback="onSignedIn"`)
 * with each event's detail, as Turnstile and Google Identity Services do, until `signal` aborts.
 * A success callback that returns false takes over navigation, as cancelling the event does. The
 * events themselves are dispatched as ever.
 */
export function followCallbacks(el: HTMLElement, callbacks: Callbacks, signal: AbortSignal): void {
  for (const event of CALLBACK_EVENTS) {
    const name = callbacks[event]
    if (name) {
      el.addEventListener(
        'service-auth:' + event,
        (e) => {
          // Looked up when the event comes, so that the page may define it after the script.
          const callback: unknown = Reflect.get(self, name)
          if (typeof callback == 'function') {
            if (callback((e as CustomEvent<unknown>).detail) === false) e.preventDefault()
          } else {
            console.error(invalid(CALLBACK_ATTRIBUTES[event]))
          }
        },
        { signal },
      )
    }
  }
}
