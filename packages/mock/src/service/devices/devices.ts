// DELETE /v1/entity/tokens/{id}: a device (an element of Identity.tokens) is removed from its
// identity, as when a phone is lost. Not in the spec; every official client calls it.
import { HttpProblem, sendEmpty } from '@service-auth/http'
import type { SignedHandler } from '../context.js'

/**
 * 204; 404 when no identity of the key's app has the device. A challenge the device signed can
 * no longer be confirmed; sessions it started stay until they end, as the app's own sessions do.
 */
export const deleteDevice: SignedHandler = (context, exchange) => {
  const found = context.stores.identities.findDevice(exchange.key.app, exchange.params[0] ?? '')
  if (!found) throw new HttpProblem(404, 'There is no device with this id.')
  context.stores.identities.removeDevice(found.identity, found.device)
  sendEmpty(exchange.res, 204)
}
