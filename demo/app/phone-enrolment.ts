// Who may see an enrollment code, for the enrol page and /__app/enroll alike. A code is a key to
// an identity: whoever redeems it has a phone that signs in as that identity from then on. So a
// code goes on screen only to someone entitled to add a phone: for a new identity, whoever asks
// (it is theirs from now on), and for an existing one, the person signed in as it. Anyone else
// who names an existing identity gets nothing on screen: the code goes to the identity's own
// e-mail address (the service sends it), which only its owner reads. Typing a victim's address
// must not be a way into their account.
import { HttpProblem } from '@service-auth/http'
import { PathSegmentError, ServiceError, type Enrollment } from 'service-auth/server'
import type { AppContext } from './context.js'

/** The service's own loose check: something, an @, and a host with a dot. */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export type PhoneEnrolment =
  /** The code may be shown: a new identity (`created`), or the signed-in person's own. */
  | { shown: Enrollment; created: boolean }
  /** An existing identity, asked for by someone else: the code went to its address only. */
  | { emailedTo: string }
  /** An existing identity with no address to send to, asked for by someone else: no code at all. */
  | { refused: string }

export interface EnrolmentOptions {
  /** Who the request's session belongs to, if anyone. */
  signedInAs: string | undefined
  /** Also e-mail a code that is shown (the enrol page does, to show the e-mail beside it). */
  emailShown: boolean
  /** Whether the controller lets a new identity in (`/__app/enroll {allowed: false}`). */
  allowed?: boolean
}

/**
 * Enrolls `identifier` at the service and says where its code went. Only a code that may be
 * shown makes the identifier a user of this site; the others change nothing here, so a stranger
 * can neither bar an account nor let a barred one back in. The service's refusals are a 502.
 */
export async function enrolPhone(
  context: AppContext,
  identifier: string,
  { signedInAs, emailShown, allowed = true }: EnrolmentOptions,
): Promise<PhoneEnrolment> {
  const own = signedInAs === identifier
  const address = EMAIL.test(identifier)
  try {
    if (!own && (await exists(context, identifier))) return await sendToOwner(context, identifier, address)
    const { enrollment, created } = await context.serviceClient.enroll({ identifier, sendEmail: emailShown && address })
    // Someone enrolled it between the look-up and now: it is not new after all, and not ours to show.
    if (!created && !own) return emailShown && address ? { emailedTo: identifier } : refusal(identifier)
    context.users.add(identifier, { allowed })
    return { shown: enrollment, created }
  } catch (error) {
    if (error instanceof PathSegmentError) throw new HttpProblem(400, `The identifier ${JSON.stringify(identifier)} cannot be looked up at the service.`)
    if (!(error instanceof ServiceError)) throw error
    // The service's refusal is not this app's fault, nor a reason for the phone to retry blindly.
    throw new HttpProblem(502, `The service did not enroll ${identifier}: ${error.message}`)
  }
}

async function sendToOwner(context: AppContext, identifier: string, address: boolean): Promise<PhoneEnrolment> {
  if (!address) return refusal(identifier)
  await context.serviceClient.enroll({ identifier, sendEmail: true })
  return { emailedTo: identifier }
}

const refusal = (identifier: string): PhoneEnrolment => ({ refused: `${identifier} is enrolled already: sign in as ${identifier} to add a phone.` })

async function exists(context: AppContext, identifier: string): Promise<boolean> {
  try {
    await context.serviceClient.identities.get(identifier)
    return true
  } catch (error) {
    if (error instanceof ServiceError && error.status === 404) return false
    throw error
  }
}
