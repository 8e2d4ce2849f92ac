'use client'
// service-auth/react: the widget as a React component (React 18 and 19), for the ES module only.
// It renders an empty [data-service-auth] element, which the stylesheet sizes to the widget's
// box, so a server-rendered page has the widget's place from its first paint and nothing moves
// when the widget mounts into it after hydration. Rendering reads no browser global: everything
// that touches the page happens in the effect, which the server never runs.
import { useEffect, useInsertionEffect, useRef, type CSSProperties, type ReactElement } from 'react'
import { mount, type EventDetails, type Texts } from 'service-auth'

export interface ServiceAuthProps {
  /** The API key the service issued. */
  apiKey: string
  /** Your controller's path or URL; it must be on this page's origin. */
  authUrl: string
  /** The service's base URL. Required, unless the build bakes in a default (`SERVICE_API_URL`). */
  api?: string
  /** The image kind, default `qrcode-standard`. */
  imageKind?: string
  /** The language; default the element's `lang`, `<html lang>`, then the browser's. Packs: `import 'service-auth/languages/de.js'`. */
  locale?: string
  /** Replaces any of the shown texts. */
  texts?: Partial<Texts>
  /** The phone app's URL for a challenge, `{id}` standing for its id; on touch devices the code links to it. */
  appUrl?: string
  /** A code is shown. */
  onReady?: (detail: EventDetails['ready']) => void
  /** The phone signed it; the token goes to your controller. */
  onSigned?: (detail: EventDetails['signed']) => void
  /**
   * Your controller accepted. Return `false` to take over navigation (the widget says "Signed in"),
   * as cancelling `service-auth:success` does: `onSuccess={({ path }) => (router.push(path ?? '/'), false)}`.
   */
  onSuccess?: (detail: EventDetails['success']) => unknown
  /** A code expired; a new one follows unless the widget has been unattended for 5 minutes. */
  onExpired?: (detail: EventDetails['expired']) => void
  /** Something failed; `reason` says what (see the README's Events). */
  onError?: (detail: EventDetails['error']) => void
  className?: string
  style?: CSSProperties
}

type Callbacks = Pick<ServiceAuthProps, 'onReady' | 'onSigned' | 'onSuccess' | 'onExpired' | 'onError'>

/**
 * The QR sign-in. Changing an option starts it afresh with a new code; changing a callback,
 * `className` or `style` does not. Unmounting aborts every request and timer.
 * @example <ServiceAuth apiKey="YOUR_API_KEY" authUrl="/auth/controller" onSuccess={({ path }) => (router.push(path ?? '/'), false)} />
 */
export function ServiceAuth(props: ServiceAuthProps): ReactElement {
  const { apiKey, authUrl, api, imageKind, locale, texts, appUrl, className, style } = props
  const element = useRef<HTMLDivElement>(null)
  // The latest callbacks, read when an event arrives, so that an inline arrow function (a new one
  // each render) never restarts the widget. Updated at commit, before any event the new render
  // could hear; an insertion effect because React 18 warns about layout effects on the server.
  const callbacks = useRef<Callbacks>(props)
  useInsertionEffect(() => {
    callbacks.current = props
  })
  // By value: `texts={{ ready: '…' }}` written inline is a new object each render, the same texts.
  const wording = texts && JSON.stringify(texts)

  useEffect(() => {
    const el = element.current!
    const listening = new AbortController()
    const on = <K extends keyof EventDetails>(name: K, handle: (event: CustomEvent<EventDetails[K]>) => void) =>
      el.addEventListener(`service-auth:${name}`, handle as EventListener, listening)
    on('ready', (event) => callbacks.current.onReady?.(event.detail))
    on('signed', (event) => callbacks.current.onSigned?.(event.detail))
    on('success', (event) => callbacks.current.onSuccess?.(event.detail) === false && event.preventDefault())
    on('expired', (event) => callbacks.current.onExpired?.(event.detail))
    on('error', (event) => callbacks.current.onError?.(event.detail))
    // Listening first: a widget whose options are unusable reports so while it mounts.
    const handle = mount(el, { apiKey, authUrl, api, imageKind, locale, appUrl, texts: wording && JSON.parse(wording) })
    return () => {
      listening.abort()
      handle.destroy()
    }
  }, [apiKey, authUrl, api, imageKind, locale, appUrl, wording])

  // data-service-auth="" rather than a bare attribute: React drops `true` from data-* attributes.
  return <div ref={element} data-service-auth="" className={className} style={style} />
}
