// GET /v1/entity/challenges/{id}/status: the long poll (spec section 4, "Check challenge status").
// A pending challenge holds the request for holdMs; signing or expiry answers it at once. Only
// the browser that created the challenge may ask: the id is in the QR code for anyone to see,
// so the status URL carries a secret besides (the pollingUrl), and without it the answer is 403.
import type { ServerResponse } from 'node:http'
import { HttpProblem, sendProblem, sendEmpty, sendJson } from '@service-auth/http'
import type { Challenge } from './challenge-store.js'
import type { Handler, ServiceContext } from '../context.js'
import { sameSecret } from '../access/same-secret.js'
import type { ChallengeStatusJson } from 'service-auth'

/** The query parameter of pollingUrl and authTokenUrl that holds the challenge's polling secret. */
export const POLL_SECRET_PARAM = 'secret'

const notFound = () => new HttpProblem(404, 'There is no challenge with this id.')

/** The challenge the URL names, if its polling secret is there too; 404 unknown, 403 no or wrong secret. */
function ownChallenge(context: ServiceContext, url: URL, id: string): Challenge {
  const challenge = context.stores.challenges.get(id)
  if (!challenge) throw notFound()
  const secret = url.searchParams.get(POLL_SECRET_PARAM)
  if (secret === null || !sameSecret(secret, challenge.pollSecret)) {
    throw new HttpProblem(
      403,
      `Only the browser that created the challenge may read its status: use the pollingUrl (or authTokenUrl) of the creation answer, with its ${POLL_SECRET_PARAM} parameter.`,
    )
  }
  return challenge
}

export const checkChallengeStatus: Handler = (context, { res, url, params: [id = ''] }) => {
  const challenge = ownChallenge(context, url, id)
  context.hooks.polled(challenge)
  if (answerSettled(res, challenge, url.pathname)) return

  const stop = () => {
    context.timers.clear(hold)
    unsubscribe()
  }
  const hold = context.timers.set(() => {
    stop()
    sendEmpty(res, 204)
  }, context.settings.holdMs)
  const unsubscribe = context.stores.challenges.onChange(id, (changed) => {
    // Only a settled state ends the hold early; anything else waits for the hold to run out.
    if (changed && !answerSettled(res, changed, url.pathname)) return
    stop()
    if (!changed) sendProblem(res, notFound(), url.pathname)
  })
  // A client that gives up must not leave its timer and subscription behind.
  res.on('close', stop)
}

/**
 * GET /v1/entity/challenges/{id}/token, the Challenge's authTokenUrl: the token once signed, at
 * once and never held (204 until then). The spec names the URL but not its answers; these are
 * the status endpoint's, the secret included.
 */
export const fetchChallengeToken: Handler = (context, { res, url, params: [id = ''] }) => {
  const challenge = ownChallenge(context, url, id)
  if (!answerSettled(res, challenge, url.pathname)) sendEmpty(res, 204)
}

/** Answers a signed, expired or consumed challenge and returns true; returns false while pending. */
function answerSettled(res: ServerResponse, challenge: Challenge, instance: string): boolean {
  switch (challenge.state) {
    case 'pending':
      return false
    case 'signed':
      // sign() sets the token as it sets the state.
      sendJson(res, 200, { token: challenge.token! } satisfies ChallengeStatusJson)
      return true
    case 'expired':
      sendProblem(res, new HttpProblem(410, 'The challenge has expired.'), instance)
      return true
    case 'consumed':
      sendProblem(res, new HttpProblem(410, 'The challenge has been used already.'), instance)
      return true
  }
}
