// service-auth/vue: the widget as a Vue 3 component, for the ES module only; the React
// component's twin. It renders an empty [data-service-auth] element, which the stylesheet sizes
// to the widget's box, so a server-rendered page has the widget's place from its first paint.
// Rendering reads no browser global: the widget mounts in onMounted, which the server never runs.
import { defineComponent, h, onBeforeUnmount, onMounted, ref, watch, type PropType } from 'vue'
import { get, mount, type EventDetails, type Options, type Texts } from 'service-auth'

/**
 * The QR sign-in. Its props are the React component's: changing one starts it afresh with a new
 * code, and a re-render with the same values (texts compared by value) keeps its code. Unmounting
 * aborts every request and timer. `@success` may return `false` to take over navigation.
 * @example <ServiceAuth api-key="YOUR_API_KEY" auth-url="/auth/controller" @success="({ path }) => (router.push(path ?? '/'), false)" />
 */
export const ServiceAuth = defineComponent({
  name: 'ServiceAuth',
  props: {
    /** The API key the service issued. */
    apiKey: { type: String, required: true },
    /** Your controller's path or URL; it must be on this page's origin. */
    authUrl: { type: String, required: true },
    /** The service's base URL; the default is baked in at build time. */
    api: String,
    /** The image kind, default `qrcode-standard`. */
    imageKind: String,
    /** The language; default the element's `lang`, `<html lang>`, then the browser's. Packs: `import 'service-auth/languages/de.js'`. */
    locale: String,
    /** Replaces any of the shown texts. */
    texts: Object as PropType<Partial<Texts>>,
    /** The phone app's URL for a challenge, `{id}` standing for its id; on touch devices the code links to it. */
    appUrl: String,
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
  setup(props, { emit }) {
    const element = ref<HTMLDivElement>()
    const listening = new AbortController()
    // Read afresh at each render: a parent that renders again with the same values changes
    // nothing, and mount() restarts the widget only when the options differ (by value).
    const options = (): Options => ({
      apiKey: props.apiKey,
      authUrl: props.authUrl,
      api: props.api,
      imageKind: props.imageKind,
      locale: props.locale,
      appUrl: props.appUrl,
      texts: props.texts,
    })

    onMounted(() => {
      const el = element.value!
      const on = <K extends keyof EventDetails>(name: K, handle: (event: CustomEvent<EventDetails[K]>) => void) =>
        el.addEventListener(`service-auth:${name}`, handle as EventListener, listening)
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
      if (element.value) get(element.value)?.destroy()
    })

    // data-service-auth="" as the React component writes it: the same markup from either.
    return () => h('div', { ref: element, 'data-service-auth': '' })
  },
})

export default ServiceAuth
