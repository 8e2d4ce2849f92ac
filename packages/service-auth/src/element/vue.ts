// service-auth/element/vue: the element, with <service-auth> typed in Vue's templates (vue-tsc).
// Types only beyond the element: apart from service-auth/element, so that a project without Vue
// never reads them. (Vue's compiler must also be told it is an element: isCustomElement.)
import type { HTMLAttributes } from 'vue'
import type { ServiceAuthAttributes, ServiceAuthElement, ServiceAuthElementEventMap } from '../element.js'

export * from '../element.js'

/** `service-auth-success` as Vue names its listener prop: `onServiceAuthSuccess`. */
type ListenerName<K extends string> = K extends `service-auth-${infer Name}` ? `onServiceAuth${Capitalize<Name>}` : never

/** `<service-auth>`'s props in a Vue template: the attributes, `texts`, and `@service-auth-…` listeners. */
export type ServiceAuthElementProps = HTMLAttributes &
  ServiceAuthAttributes & { [K in keyof ServiceAuthElementEventMap as ListenerName<K>]?: (event: ServiceAuthElementEventMap[K]) => void }

declare module 'vue' {
  interface GlobalComponents {
    /** The element, as vue-tsc reads a component: what its template may pass. */
    'service-auth': new () => ServiceAuthElement & { $props: ServiceAuthElementProps }
  }
}
