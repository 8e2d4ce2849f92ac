// service-auth/element/svelte: the element, with <service-auth> typed in Svelte's templates
// (svelte-check). Types only beyond the element: apart from service-auth/element, so that a
// project without Svelte never reads them.
import type { HTMLAttributes } from 'svelte/elements'
import type { ServiceAuthAttributes, ServiceAuthElement, ServiceAuthElementEventMap } from '../element.js'

export * from '../element.js'

/**
 * `<service-auth>`'s attributes in a Svelte 5 template, with its events as Svelte 5 binds an
 * element's: `onservice-auth-success={…}`.
 */
export type ServiceAuthElementProps = HTMLAttributes<ServiceAuthElement> &
  ServiceAuthAttributes & { [K in keyof ServiceAuthElementEventMap as `on${K}`]?: ((event: ServiceAuthElementEventMap[K]) => void) | undefined }

declare module 'svelte/elements' {
  interface SvelteHTMLElements {
    'service-auth': ServiceAuthElementProps
  }
}
