// service-auth/element/solid: the element, with <service-auth> typed in Solid's JSX. Types only
// beyond the element: apart from service-auth/element, so that a project without Solid never
// reads them.
import type { JSX } from 'solid-js'
import type { ServiceAuthAttributes, ServiceAuthElement, ServiceAuthElementEventMap } from '../element.js'

export * from '../element.js'

/**
 * `<service-auth>`'s props in Solid: the attributes (Solid sets `api-key={…}` as the `apiKey`
 * property, which reflects the attribute), `texts`, and its events with Solid's `on:` prefix,
 * which listens for the event named as written: `on:service-auth-success={…}`.
 */
export type ServiceAuthElementProps = JSX.HTMLAttributes<ServiceAuthElement> &
  ServiceAuthAttributes & { [K in keyof ServiceAuthElementEventMap as `on:${K}`]?: ((event: ServiceAuthElementEventMap[K]) => void) | undefined }

declare module 'solid-js' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'service-auth': ServiceAuthElementProps
    }
  }
}
