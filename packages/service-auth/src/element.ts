// service-auth/element: the widget as a custom element, <service-auth>, which every framework's
// templates reach (Vue, Svelte, Angular, Solid, React 19) as they reach a <video>: attributes in,
// events out. The only module of the ES build with a side effect, defining the element; on a
// server (Node renders the page and evaluates its imports, with no DOM) it defines nothing.
import {
  get,
  mount,
  OPTIONS,
  type Controls,
  type EventDetails,
  type MarkupOption,
  type Options,
  type OptionValue,
  type RequiredOption,
  type State,
  type Texts,
} from 'service-auth'

/** The widget's events, each heard as `service-auth:<name>` and dispatched again as `service-auth-<name>`. */
const EVENTS = { ready: 0, signed: 0, success: 0, expired: 0, error: 0 } satisfies Record<keyof EventDetails, 0>

/** The element's events, by name: the widget's `service-auth:<name>` events under names that templates can bind. */
export type ServiceAuthElementEventMap = { [K in keyof EventDetails as `service-auth-${K}`]: CustomEvent<EventDetails[K]> }

/** An option's value as an attribute says it: its text, or for a yes-or-no option `false` for no. */
type AttributeValue<K extends MarkupOption> = OptionValue<K> extends boolean ? 'true' | 'false' : string

/** The element's attribute of an option, from the options table. */
type AttributeOf<K extends MarkupOption> = (typeof OPTIONS)[K]['element']

/**
 * The element's attributes, as a framework's template writes them: each option's, from the options
 * table (its one-line doc there), those it requires required; and `texts`, a property that
 * frameworks which set properties pass as an object.
 */
export type ServiceAuthAttributes = { [K in MarkupOption & RequiredOption as AttributeOf<K>]: AttributeValue<K> } & {
  [K in Exclude<MarkupOption, RequiredOption> as AttributeOf<K>]?: AttributeValue<K> | undefined
} & { texts?: Partial<Texts> | undefined }

/** Each attribute is also a property of the option's name that reflects it (null while unset). */
type ReflectedProperties = { [K in MarkupOption]: string | null }

/** The options that are attributes of the element (all but `texts`), in the table's order. */
const ATTRIBUTE_OPTIONS = (Object.keys(OPTIONS) as (keyof typeof OPTIONS)[]).filter((option): option is MarkupOption => 'element' in OPTIONS[option])

// A class to extend where there is no DOM, so that importing this module on a server throws nothing.
const Base: typeof HTMLElement = typeof HTMLElement == 'undefined' ? (class {} as typeof HTMLElement) : HTMLElement

/**
 * `<service-auth api-key="…" auth-url="/auth/controller">`: the QR sign-in. Connecting it mounts
 * the widget into it; changing an attribute (or `texts`) starts afresh with a new code; removing it
 * from the page aborts every request and timer, and putting it back starts again.
 */
// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface's properties are defined on the prototype below, where the rule cannot see them
export class ServiceAuthElement extends Base implements Controls {
  static readonly observedAttributes: string[] = ATTRIBUTE_OPTIONS.map((option) => OPTIONS[option].element)
  #texts?: Partial<Texts>

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

  /** What the widget shows, or undefined while the element is not in the page. */
  get state(): State | undefined {
    return get(this)?.state
  }

  /** Shows a fresh code and waits for the phone; does nothing while already running. */
  start(): void {
    get(this)?.start()
  }

  /** Stops every request and timer; the widget offers a button to start again. */
  stop(): void {
    get(this)?.stop()
  }

  /** Stops, and shows a new code at once. */
  reset(): void {
    get(this)?.reset()
  }

  connectedCallback(): void {
    // A framework may set properties before the element is defined, on the plain element, where
    // they hide the class's accessors: take them over.
    const own = this as unknown as Record<string, unknown>
    for (const name of ['texts', ...ATTRIBUTE_OPTIONS]) {
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
    for (const option of ATTRIBUTE_OPTIONS) {
      const { element, type } = OPTIONS[option]
      const value = this.getAttribute(element)
      if (value != null) options[option] = type == 'boolean' ? value != 'false' : value
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

// The class's declaration merges with this: its reflected properties, typed from the table, and
// defined on its prototype just below, from the table too.
export interface ServiceAuthElement extends ReflectedProperties {}

for (const option of ATTRIBUTE_OPTIONS) {
  const attribute = OPTIONS[option].element
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
