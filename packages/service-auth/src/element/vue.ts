// service-auth/element/vue: the element, with <service-auth> typed in Vue's templates (vue-tsc).
// Types only beyond the element: apart from service-auth/element, so that a project without Vue
// never reads them. (Vue's compiler must also be told it is an element: isCustomElement.)
import type { HTMLAttributes } from 'vue'
import type { ServiceAuthAttributes, ServiceAuthElement, ServiceAuthElementEventMap } from '../element.js'

export * from '../element.js'

/** `auth-url` as vue-tsc reads a component's attribute: `authUrl`. */
type Camel<K extends string> = K extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : K

/**
 * `<service-auth>`'s props in a Vue template: the attributes (written `api-key`, read `apiKey`
 * as vue-tsc reads any component's), `texts`, and the `@service-auth-…` listeners, which Vue
 * names `onServiceAuth…`.
 */
export type ServiceAuthElementProps = HTMLAttributes & { [K in keyof ServiceAuthAttributes as Camel<K>]: ServiceAuthAttributes[K] } & {
  [K in keyof ServiceAuthElementEventMap as `on${Capitalize<Camel<K>>}`]?: ((event: ServiceAuthElementEventMap[K]) => void) | undefined
}

declare module 'vue' {
  interface GlobalComponents {
    /** The element, as vue-tsc reads a component: what its template may pass. */
    'service-auth': new () => ServiceAuthElement & { $props: ServiceAuthElementProps }
  }
}
