// GET and PATCH /v1/entity/configuration: the app's settings at the service. Not in the spec;
// the official clients read them and write them (PHP sends only the fields it changes, Node sends
// all three with null for "none"). The session switch has two names, and clients read both.
import type * as Wire from 'service-auth/server'
import { FieldValidator, parseJsonObject, sendJson } from '@service-auth/http'
import type { AppConfiguration } from './configuration-store.js'
import type { SignedExchange, SignedHandler } from '../context.js'

const URL_FIELDS = ['websiteUrl', 'authenticationUrl', 'registrationUrl'] as const
const HTTP_URL = /^https?:\/\/[^\s/?#]+([/?#]\S*)?$/i

/** The answer of both methods, in the shape service-auth/server promises. */
function configurationJson(configuration: Readonly<AppConfiguration>): Wire.Configuration {
  return { ...configuration, supportSessions: configuration.sessionsEnabled }
}

export const showConfiguration: SignedHandler = (context, { key, res }) => {
  sendJson(res, 200, configurationJson(context.stores.configurations.get(key.app)))
}

/** Fields not given stay; unknown fields are ignored, as clients may send settings the mock does not keep. */
export const updateConfiguration: SignedHandler = (context, exchange) => {
  const changes = readConfigurationChanges(exchange)
  sendJson(exchange.res, 200, configurationJson(context.stores.configurations.update(exchange.key.app, changes)))
}

function readConfigurationChanges({ req, body }: SignedExchange): Partial<AppConfiguration> {
  // PHP's client sends an empty body for an empty change.
  const input = parseJsonObject(body, req.headers['content-type'], { allowEmpty: true })
  const fields = new FieldValidator(input)
  const changes: Partial<AppConfiguration> = {}
  for (const name of URL_FIELDS) {
    if (input[name] === null || input[name] === '') {
      changes[name] = null
      continue
    }
    changes[name] = fields.string(name, {
      maxLength: 2000,
      pattern: { regex: HTTP_URL, kind: 'patternMismatch', message: 'This value should be an absolute http(s) URL.' },
    })
  }
  const enabled = fields.boolean('sessionsEnabled')
  const supported = fields.boolean('supportSessions')
  if (enabled !== undefined && supported !== undefined && enabled !== supported) {
    fields.add('supportSessions', 'notEqual', 'supportSessions is another name for sessionsEnabled; when both are given they must agree.')
  }
  fields.check()
  changes.sessionsEnabled = enabled ?? supported
  return changes
}
