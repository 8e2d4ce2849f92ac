// service-auth/vue: the widget as a Vue 3 component, for the ES module only; the React
// component's twin. It renders an empty [data-service-auth] element, which the stylesheet sizes
// to the widget's box, so a server-rendered page has the widget's place from its first paint.
// Rendering reads no browser global: the widget mounts in onMounted, which the server never runs.
import { defineComponent, h, onBeforeUnmount, onMounted, ref, watch, type PropType } from 'vue'
import { get, mount, OPTIONS, type Controls, type EventDetails, type Option, type Options, type OptionValue, type RequiredOption } from 'service-auth'

/** Vue's constructor for each type of the options table. */
const TYPES = { string: String, boolean: Boolean, texts: Object }

/** The options as Vue props, from the table: each typed, those it requires required. */
type OptionPropOptions = { [K in Option]: { type: PropType<OptionValue<K>>; required: K extends RequiredOption ? true : false } }

/**
 * Every option of the table, a prop. `default: undefined` keeps an absent yes-or-no option absent,
 * where Vue would make it `false` (and an absent `autoStart` would then wait for a click).
 */
const optionProps = Object.fromEntries(
  (Object.keys(OPTIONS) as Option[]).map((option) => {
    const row: { type: keyof typeof TYPES; required?: true } = OPTIONS[option]
    return [option, { type: TYPES[row.type], required: !!row.required, default: undefined }]
  }),
) as unknown as OptionPropOptions

/**
 * The QR sign-in. Its props are the React component's: changing one starts it afresh with a new
 * code, and a re-render with the same values (texts compared by value) keeps its code. Unmounting
 * aborts every request and timer. `@success` may return `false` to take over navigation. A
 * template ref gets its controls: `start()`, `stop()`, `reset()` (a new code now) and `state`.
 * @example <ServiceAuth api-key="YOUR_API_KEY" auth-url="/auth/controller" api="https://api.service-auth.example" @success="({ path }) => (router.push(path ?? '/'), false)" />
 */
export const ServiceAuth = defineComponent({
  name: 'ServiceAuth',
  props: {
    ...optionProps,
    /**
     * Your controller accepted: `@success` or `:on-success`. Return `false` to take over
     * navigation (the widget says "Signed in"), as cancelling `service-auth:success` does:
     * `@success="({ path }) => (router.push(path ?? '/'), false)"`. A prop rather than an emit,
     * as its answer counts.
     */
    onSuccess: Function as PropType<(detail: EventDetails['success']) => unknown>,
  },
  emits: {
    /** A code is shown. */
    ready: (_: EventDetails['ready']) => true,
    /** The phone signed it; the token goes to your controller. */
    signed: (_: EventDetails['signed']) => true,
    /** A code expired; a new one follows unless the widget has been unattended for 5 minutes. */
    expired: (_: EventDetails['expired']) => true,
    /** Something failed; `reason` says what (see the README's Events). */
    error: (_: EventDetails['error']) => true,
  },
  // What a template ref reaches: the controls, and nothing else of the component.
  expose: ['start', 'stop', 'reset', 'state'],
  setup(props, { emit }) {
    const element = ref<HTMLDivElement>()
    const listening = new AbortController()
    // Read afresh at each render: a parent that renders again with the same values changes
    // nothing, and mount() restarts the widget only when the options differ (by value).
    const options = (): Options => Object.fromEntries((Object.keys(OPTIONS) as Option[]).map((option) => [option, props[option]]))
    const widget = () => element.value && get(element.value)

    onMounted(() => {
      const el = element.value!
      const on = <K extends keyof EventDetails>(name: K, listener: (event: CustomEvent<EventDetails[K]>) => void) =>
        el.addEventListener(`service-auth:${name}`, listener as EventListener, listening)
      on('ready', (event) => emit('ready', event.detail))
      on('signed', (event) => emit('signed', event.detail))
      on('success', (event) => props.onSuccess?.(event.detail) === false && event.preventDefault())
      on('expired', (event) => emit('expired', event.detail))
      on('error', (event) => emit('error', event.detail))
      // Listening first: a widget whose options are unusable reports so while it mounts.
      mount(el, options())
      // `deep`: texts changed in place count too; by value, so an equal object written anew does not.
      watch(options, (changed) => mount(el, changed), { deep: true })
    })
    onBeforeUnmount(() => {
      listening.abort()
      widget()?.destroy()
    })

    // The bindings a template ref reaches (see `expose`); `state` is read afresh each time.
    const controls: Controls = {
      start: () => widget()?.start(),
      stop: () => widget()?.stop(),
      reset: () => widget()?.reset(),
      get state() {
        return widget()?.state
      },
    }
    return Object.assign(controls, { element })
  },
  // data-service-auth="" as the React component writes it: the same markup from either.
  render() {
    return h('div', { ref: 'element', 'data-service-auth': '' })
  },
})

export default ServiceAuth
