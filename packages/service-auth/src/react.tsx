'use client'
// service-auth/react: the widget as a React component (React 18 and 19), for the ES module only.
// It renders an empty [data-service-auth] element, which the stylesheet sizes to the widget's
// box, so a server-rendered page has the widget's place from its first paint and nothing moves
// when the widget mounts into it after hydration. Rendering reads no browser global: everything
// that touches the page happens in the effect, which the server never runs.
import {
  forwardRef,
  useEffect,
  useImperativeHandle,
  useInsertionEffect,
  useRef,
  type CSSProperties,
  type ForwardRefExoticComponent,
  type RefAttributes,
} from 'react'
import { mount, OPTIONS, type Controls, type EventDetails, type Handle, type Option, type OptionProps } from 'service-auth'

/** The component's props: every option, from the options table (`api` among those required), the callbacks, and the element's `className` and `style`. */
export interface ServiceAuthProps extends OptionProps {
  /** A code is shown. */
  onReady?: ((detail: EventDetails['ready']) => void) | undefined
  /** The phone signed it; the token goes to your controller. */
  onSigned?: ((detail: EventDetails['signed']) => void) | undefined
  /**
   * Your controller accepted. Return `false` to take over navigation (the widget says "Signed in"),
   * as cancelling `service-auth:success` does: `onSuccess={({ path }) => (router.push(path ?? '/'), false)}`.
   */
  onSuccess?: ((detail: EventDetails['success']) => unknown) | undefined
  /** A code expired; a new one follows unless the widget has been unattended for 5 minutes. */
  onExpired?: ((detail: EventDetails['expired']) => void) | undefined
  /** Something failed; `reason` says what (see the README's Events). */
  onError?: ((detail: EventDetails['error']) => void) | undefined
  className?: string | undefined
  style?: CSSProperties | undefined
}

type Callbacks = Pick<ServiceAuthProps, 'onReady' | 'onSigned' | 'onSuccess' | 'onExpired' | 'onError'>

/**
 * The QR sign-in. Changing an option starts it afresh with a new code; changing a callback,
 * `className` or `style` does not. Unmounting aborts every request and timer. A `ref` gets its
 * controls: `start()`, `stop()`, `reset()` (a new code now) and `state`.
 * @example <ServiceAuth apiKey="YOUR_API_KEY" authUrl="/auth/controller" api="https://api.service-auth.example" onSuccess={({ path }) => (router.push(path ?? '/'), false)} />
 */
export const ServiceAuth: ForwardRefExoticComponent<ServiceAuthProps & RefAttributes<Controls>> = forwardRef<Controls, ServiceAuthProps>(
  function ServiceAuth(props, ref) {
    const element = useRef<HTMLDivElement>(null)
    const handle = useRef<Handle>(undefined)
    // The latest callbacks, read when an event arrives, so that an inline arrow function (a new one
    // each render) never restarts the widget. Updated at commit, before any event the new render
    // could hear; an insertion effect because React 18 warns about layout effects on the server.
    const callbacks = useRef<Callbacks>(props)
    useInsertionEffect(() => {
      callbacks.current = props
    })
    // Every option the table has, by value: `texts={{ ready: '…' }}` written inline is a new object
    // each render, the same options.
    const options = JSON.stringify(Object.fromEntries((Object.keys(OPTIONS) as Option[]).map((option) => [option, props[option]])))
    // Read when called: the handle of whichever widget is mounted then.
    useImperativeHandle(
      ref,
      () => ({
        start: () => handle.current?.start(),
        stop: () => handle.current?.stop(),
        reset: () => handle.current?.reset(),
        get state() {
          return handle.current?.state
        },
      }),
      [],
    )

    useEffect(() => {
      const el = element.current!
      const listening = new AbortController()
      const on = <K extends keyof EventDetails>(name: K, listener: (event: CustomEvent<EventDetails[K]>) => void) =>
        el.addEventListener(`service-auth:${name}`, listener as EventListener, listening)
      on('ready', (event) => callbacks.current.onReady?.(event.detail))
      on('signed', (event) => callbacks.current.onSigned?.(event.detail))
      on('success', (event) => callbacks.current.onSuccess?.(event.detail) === false && event.preventDefault())
      on('expired', (event) => callbacks.current.onExpired?.(event.detail))
      on('error', (event) => callbacks.current.onError?.(event.detail))
      // Listening first: a widget whose options are unusable reports so while it mounts.
      const mounted = mount(el, JSON.parse(options))
      handle.current = mounted
      return () => {
        listening.abort()
        mounted.destroy()
        if (handle.current == mounted) handle.current = undefined
      }
    }, [options])

    // data-service-auth="" rather than a bare attribute: React drops `true` from data-* attributes.
    return <div ref={element} data-service-auth="" className={props.className} style={props.style} />
  },
)
