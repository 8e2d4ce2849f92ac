// Routing of the /v1/ API, and nothing else: which endpoint of API_ROUTES a request names (or the
// 404 or 405 to answer instead), and handing the request to it. What a request meets on its way
// there (the request log, CORS, its body, the knobs' faults, a full disk) is server.ts's steps.
import { handlerFor, matchRoute, type RouteMatch } from '@service-auth/http'
import { API_ROUTES } from './api-routes.js'
import type { ApiRoute, Exchange, Handler, ServiceContext } from './context.js'

/** The route a path names, if any: its kind and whether browsers call it are known before its method is checked. */
export const apiRouteOf = (path: string): RouteMatch<ApiRoute> | undefined => matchRoute(API_ROUTES, path)

/** An endpoint a request names: its route, its handler for the request's method, and the path's params. */
export interface Endpoint {
  route: ApiRoute
  handler: Handler
  params: string[]
}

/** The endpoint of the matched route for `method`; the 404 or 405 problem when there is none. */
export function endpointFor(match: RouteMatch<ApiRoute> | undefined, method: string | undefined): Endpoint {
  const handler = handlerFor(match, method)
  return { route: match!.route, handler, params: match!.params }
}

/** Hands the request to its endpoint. */
export const handleApi = (context: ServiceContext, { handler }: Endpoint, exchange: Exchange): void | Promise<void> => handler(context, exchange)
