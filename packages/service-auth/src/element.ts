// service-auth/element: the widget as a custom element, <service-auth>, which every framework's
// templates reach (Vue, Svelte, Angular, Solid, React 19) as they reach a <video>: attributes in,
// events out. The only module of the ES build with a side effect, defining the element; on a
// server (Node renders the page and evaluates its imports, with no DOM) it defines nothing.
import { get, mount, type EventDetails, type Options, type State, type Texts } from 'service-auth'

/**
 * The element's attributes, by option: each option's name in kebab case. `texts`, an object, is
 * a property. The `satisfies` fails the type check when config.ts gains an option left out here.
 */
const ATTRIBUTE_OF = {
  apiKey: 'api-key',
  authUrl: 'auth-url',
  api: 'api',
  imageKind: 'image-kind',
  authType: 'auth-type',
  imageData: 'image-data',
  authHeader: 'auth-header',
  autoStart: 'auto-start',
  locale: 'locale',
  appUrl: 'app-url',
} as const satisfies Record<Exclude<keyof Options, 'texts'>, string>

/** The yes-or-no options: true unless the attribute says `false`. */
const FLAGS = new Set<string>(['imageData', 'autoStart'])

/** The widget's events, each heard as `service-auth:<name>` and dispatched again as `service-auth-<name>`. */
const EVENTS = { ready: 0, signed: 0, success: 0, expired: 0, error: 0 } satisfies Record<keyof EventDetails, 0>

/** The element's events, by name: the widget's `service-auth:<name>` events under names that templates can bind. */
export type ServiceAuthElementEventMap = { [K in keyof EventDetails as `service-auth-${K}`]: CustomEvent<EventDetails[K]> }

/** The element's attributes, as a framework's template writes them. */
export type ServiceAuthAttributes = {
  /** The API key the service issued. Required. */
  'api-key': string
  /** Your controller's path or URL, on this page's origin. Required. */
  'auth-url': string
  /** The service's base URL; the default is baked in at build time. */
  api?: string
  /** Which QR image the service draws, default `qrcode-standard`. */
  'image-kind'?: string
  /** Sent as the challenge's `authType` when set. */
  'auth-type'?: string
  /** Inline image data rather than image URLs; `false` turns it off. */
  'image-data'?: 'true' | 'false'
  /** The name of the header that carries the token, default `X-Service-Auth`. */
  'auth-header'?: string
  /** Create a challenge as soon as connected; `false` waits for start() or the button. */
  'auto-start'?: 'true' | 'false'
  /** The language; default the element's `lang`, `<html lang>`, then the browser's. */
  locale?: string
  /** The phone app's URL for a challenge, `{id}` standing for its id; on touch devices the code links to it. */
  'app-url'?: string
  /** Replaces any of the shown texts (a property: frameworks that set properties pass an object). */
  texts?: Partial<Texts>
}

// A class to extend where there is no DOM, so that importing this module on a server throws nothing.
const Base: typeof HTMLElement = typeof HTMLElement == 'undefined' ? (class {} as typeof HTMLElement) : HTMLElement

/**
 * `<service-auth api-key="…" auth-url="/auth/controller">`: the QR sign-in. Connecting it mounts
 * the widget into it; changing an attribute (or `texts`) starts afresh with a new code; removing it
 * from the page aborts every request and timer, and putting it back starts again.
 */
export class ServiceAuthElement extends Base {
  static readonly observedAttributes: string[] = Object.values(ATTRIBUTE_OF)
  #texts?: Partial<Texts>
  // Each attribute is also a property of the option's name that reflects it (defined below), for
  // frameworks that set a custom element's properties rather than its attributes (Solid turns
  // `api-key={…}` into `el.apiKey = …`), and for scripts.
  /** The `api-key` attribute. */
  declare apiKey: string | null
  /** The `auth-url` attribute. */
  declare authUrl: string | null
  /** The `api` attribute. */
  declare api: string | null
  /** The `image-kind` attribute. */
  declare imageKind: string | null
  /** The `auth-type` attribute. */
  declare authType: string | null
  /** The `image-data` attribute (`false` turns it off). */
  declare imageData: string | null
  /** The `auth-header` attribute. */
  declare authHeader: string | null
  /** The `auto-start` attribute (`false` turns it off). */
  declare autoStart: string | null
  /** The `locale` attribute. */
  declare locale: string | null
  /** The `app-url` attribute. */
  declare appUrl: string | null

  constructor() {
    super()
    // Listening from the start: a widget whose attributes are unusable reports so as it mounts.
    for (const name of Object.keys(EVENTS)) this.addEventListener('service-auth:' + name, this.#relay)
  }

  /** Replaces any of the shown texts; a change (by value) starts afresh. */
  get texts(): Partial<Texts> | undefined {
    return this.#texts
  }
  set texts(texts: Partial<Texts> | undefined) {
    this.#texts = texts
    this.#update()
  }

  /** What the widget shows (its `data-state`), or undefined while the element is not in the page. */
  get state(): State | undefined {
    return get(this) && ((this.querySelector(':scope > .sa') as HTMLElement | null)?.dataset.state as State | undefined)
  }

  /** Shows a fresh code and waits for the phone; does nothing while already running. */
  start(): void {
    get(this)?.start()
  }

  /** Stops every request and timer; the widget offers a button to start again. */
  stop(): void {
    get(this)?.stop()
  }

  connectedCallback(): void {
    // A framework may set properties before the element is defined, on the plain element, where
    // they hide the class's accessors: take them over.
    const own = this as unknown as Record<string, unknown>
    for (const name of ['texts', ...Object.keys(ATTRIBUTE_OF)]) {
      if (!Object.hasOwn(this, name)) continue
      const value = own[name]
      delete own[name]
      own[name] = value
    }
    mount(this, this.#options())
  }

  disconnectedCallback(): void {
    // Not at once: an element moved within the page is disconnected and connected again in one
    // go, and keeps its code. One that stays out is destroyed before anything else runs.
    queueMicrotask(() => this.isConnected || get(this)?.destroy())
  }

  attributeChangedCallback(): void {
    this.#update()
  }

  /** Mounted with the options as they are now: mount() restarts the widget when they changed, and only then. */
  #update(): void {
    if (get(this)) mount(this, this.#options())
  }

  /** The options the attributes and `texts` give, each absent when unset. */
  #options(): Options {
    const options: Record<string, unknown> = { texts: this.#texts }
    for (const [option, attribute] of Object.entries(ATTRIBUTE_OF)) {
      const value = this.getAttribute(attribute)
      if (value != null) options[option] = FLAGS.has(option) ? value != 'false' : value
    }
    return options
  }

  /** Dispatches the widget's `service-auth:<name>` event again as `service-auth-<name>`; cancelling it cancels the first. */
  #relay = (event: Event): void => {
    if (event.target != this) return
    const { type, cancelable, detail } = event as CustomEvent
    if (!this.dispatchEvent(new CustomEvent('service-auth-' + type.slice(13), { bubbles: true, cancelable, detail }))) event.preventDefault()
  }
}

for (const [option, attribute] of Object.entries(ATTRIBUTE_OF)) {
  Object.defineProperty(ServiceAuthElement.prototype, option, {
    get(this: HTMLElement) {
      return this.getAttribute(attribute)
    },
    // null or undefined removes the attribute, as a framework unsetting a prop means.
    set(this: HTMLElement, value: unknown) {
      if (value == null) this.removeAttribute(attribute)
      else this.setAttribute(attribute, String(value))
    },
    configurable: true,
  })
}

// Typed wherever they can be heard: they bubble from the element through the document to the window.
declare global {
  interface HTMLElementTagNameMap {
    'service-auth': ServiceAuthElement
  }
  interface ElementEventMap extends ServiceAuthElementEventMap {}
  interface GlobalEventHandlersEventMap extends ServiceAuthElementEventMap {}
}

// Once: a second copy of the package on the page (or this module loaded twice) leaves the first one's element.
if (typeof customElements != 'undefined' && !customElements.get('service-auth')) customElements.define('service-auth', ServiceAuthElement)
