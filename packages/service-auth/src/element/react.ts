// service-auth/element/react: the element, with <service-auth> typed in React 19's JSX. Types
// only beyond the element: apart from service-auth/element, so that a project without React's
// types never reads them.
import type { DetailedHTMLProps, HTMLAttributes } from 'react'
import type { ServiceAuthAttributes, ServiceAuthElement, ServiceAuthElementEventMap } from '../element.js'

export * from '../element.js'

/**
 * `<service-auth>`'s props in React 19, which sets an `on…` prop of a custom element as a
 * listener of the event named by the rest, as written: `onservice-auth-success`.
 */
export type ServiceAuthElementProps = DetailedHTMLProps<HTMLAttributes<ServiceAuthElement>, ServiceAuthElement> &
  ServiceAuthAttributes & { [K in keyof ServiceAuthElementEventMap as `on${K}`]?: ((event: ServiceAuthElementEventMap[K]) => void) | undefined }

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'service-auth': ServiceAuthElementProps
    }
  }
}
