// What the site's back office does at the service, server-side with signed requests (the API
// secret never reaches a browser): lock or unlock an identity, or delete it. The QA panel uses
// these to show what a person sees when the service refuses them.
//   POST   /__app/identities/{identifier} `{locked}`: 200 with the Identity
//   DELETE /__app/identities/{identifier}: 204; the identity can no longer sign in
import { FieldValidator, HttpProblem, parseJsonObject, readBody, sendEmpty, sendJson } from '@service-auth/http'
import { ServiceError } from 'service-auth/server'
import type { AppHandler } from './context.js'

export const updateIdentity: AppHandler = async (context, { req, res, params }) => {
  const fields = new FieldValidator(parseJsonObject(await readBody(req), req.headers['content-type']))
  fields.onlyKnown(['locked'])
  const locked = fields.boolean('locked')
  if (locked === undefined && !fields.errors.locked) fields.add('locked', 'isBlank', 'This value should not be blank.')
  fields.check()
  const identifier = params[0]!
  sendJson(res, 200, await atService(identifier, () => context.serviceClient.identities.update(identifier, { locked })))
}

export const deleteIdentity: AppHandler = async (context, { res, params }) => {
  const identifier = params[0]!
  await atService(identifier, () => context.serviceClient.identities.delete(identifier))
  sendEmpty(res, 204)
}

/** The service's answer; its 404 passes through, anything else it refuses is a 502 from here. */
async function atService<T>(identifier: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call()
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error
    if (error.status === 404) throw new HttpProblem(404, `The service has no identity ${identifier}.`)
    throw new HttpProblem(502, `The service refused: ${error.message}`)
  }
}
