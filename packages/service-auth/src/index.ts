export type { Controls, Handle, State } from './widget.js'
export { OPTIONS } from './config.js'
export type { MarkupOption, Option, OptionProps, Options, OptionValue, RequiredOption } from './config.js'
export type { Texts } from './i18n.js'
export type { EventDetails, ErrorReason, ServiceAuthEventMap } from './events.js'
export type { ChallengeJson, ChallengeStatusJson, CreateChallengeBody } from './wire/challenge.js'
export type { AuthTokenPayload } from './wire/auth-token.js'
export type { SignedRequestPayload } from './wire/signed-request.js'

/** The version of this build, e.g. `"1.0.0"`. */
export const version: string = __VERSION__

export { get, mount, scan, sweep } from './registry.js'
