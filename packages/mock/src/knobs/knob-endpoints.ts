// The /__knobs/ layer's door: who may use the knobs (knob-access.ts, before the body is read, so
// a refused page's request does nothing), their preflights, and routing to the knob handlers.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { handlerFor, matchRoute, readBody, sendEmpty } from '@service-auth/http'
import { PREFLIGHT_HEADERS } from '../service/access/cors.js'
import { knobCorsHeaders, type KnobOrigins } from './knob-access.js'
import type { KnobContext } from './knob-context.js'
import { KNOB_ROUTES } from './knob-routes.js'

/** True for a path under /__knobs/, which this layer answers rather than the service. */
export const isKnobPath = (path: string) => path === '/__knobs' || path.startsWith('/__knobs/')

export async function handleKnob(knobs: KnobContext, origins: KnobOrigins, req: IncomingMessage, res: ServerResponse, url: URL, path: string): Promise<void> {
  for (const [name, value] of Object.entries(knobCorsHeaders(req, origins))) res.setHeader(name, value!)
  const body = await readBody(req)
  if (req.method === 'OPTIONS') return sendEmpty(res, 204, { ...PREFLIGHT_HEADERS, 'Access-Control-Allow-Methods': 'GET, POST, DELETE' })
  const match = matchRoute(KNOB_ROUTES, path)
  const knob = handlerFor(match, req.method)
  await knob.handle(knobs, { req, res, url, params: match!.params, body, rawBody: Buffer.from(body) })
}
