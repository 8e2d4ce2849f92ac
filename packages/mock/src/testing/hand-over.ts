// What the page does with a code the phone signed: the widget hands the token to the page's
// controller, and either goes on (`service-auth:success`, then a navigation) or says why not
// (`service-auth:error`). signShownCode waits for that, so a sign-in the controller refuses fails
// the call at once, naming the controller's status and the widget's reason, rather than failing
// a later assertion by its timeout. It listens to the widget's public events (README, Events),
// as an integrator's script would; nothing private of the widget is read.
import { SignInRefusedError, TestKitError } from './errors.js'
import type { PageLike } from './page.js'
import { whatThePageShows, type ShownCode } from './shown-code.js'

/** What the widget did with the signed code, as the page saw it. */
type Outcome =
  | { event: 'success' }
  | { event: 'error'; reason: string; status: number }
  // Neither in time; `signed`: whether the widget had the token at all.
  | { event: 'none'; signed: boolean }
  // The document the watch was set in is gone: the page went on, as only a success makes it.
  | { event: 'gone' }

interface Watch {
  challengeId: string
  timeout: number
  /** The window property the watches wait in, by challenge id. */
  slot: string
}

const SLOT = '__serviceAuthMockHandOvers'

/** What the hand-over concerns, for the messages. */
export interface HandOverContext {
  identity: string
  key: string
  timeout: number
  widget: string | undefined
}

/**
 * Starts listening before the phone signs (an outcome cannot come earlier); the returned function
 * waits for the outcome, and throws a SignInRefusedError or TestKitError when it is no sign-in.
 */
export async function watchHandOver(page: PageLike, code: ShownCode, context: HandOverContext): Promise<() => Promise<void>> {
  const root = page.locator(':root')
  // As JSON: the one kind of argument every page-like's evaluate takes alike.
  const watch = JSON.stringify({ challengeId: code.challengeId, timeout: context.timeout, slot: SLOT } satisfies Watch)
  await root.evaluate(listenInPage, watch)
  return async () => {
    let outcome: Outcome
    try {
      outcome = await root.evaluate(outcomeInPage, watch)
    } catch (error) {
      // The success's navigation can replace the document while the outcome is on its way back.
      if (/Execution context was destroyed|navigat/i.test((error as Error | undefined)?.message ?? '')) return
      throw error
    }
    await judge(page, code, outcome, context)
  }
}

async function judge(page: PageLike, shown: ShownCode, outcome: Outcome, { identity, key, timeout, widget }: HandOverContext): Promise<void> {
  const code = `the signed code (challenge ${shown.challengeId})`
  switch (outcome.event) {
    case 'success':
    case 'gone':
      return
    case 'error': {
      const { reason, status } = outcome
      const said = `the widget reports service-auth:error, reason "${reason}"`
      const message =
        reason === 'controller'
          ? `the page's controller refused ${code} with ${status}: ${said}${hint(status, identity, key)}`
          : reason === 'network'
            ? `the page's controller could not be reached with ${code}: ${said}`
            : `the page did not sign in with ${code}: ${said}, status ${status}`
      throw new SignInRefusedError(message, shown, reason, status)
    }
    case 'none':
      throw new TestKitError(
        outcome.signed
          ? `the page's controller did not answer within ${timeout / 1000} s of being handed ${code}`
          : `the widget did not take ${code} within ${timeout / 1000} s${await whatThePageShows(page, widget)}`,
      )
  }
}

/** What the controller's status usually means, as service-auth/server answers. */
function hint(status: number, identity: string, key: string): string {
  if (status === 401) return `. Does the controller verify with the secret of the key ${key}, and confirm at this mock service?`
  if (status === 403) return `. Does the controller let ${identity} in (its findUser)?`
  if (status === 423) return `. ${identity} is locked at the service.`
  if (status === 502) return '. The controller could not confirm the sign-in at the service.'
  return '.'
}

// The two functions below run in the page, which has them as their source text: they use
// nothing from this module, only what they are passed.

/** Listens for the widget's events about the challenge, and keeps the outcome's promise in the window. */
function listenInPage(_root: unknown, watch: string): void {
  const { challengeId, timeout, slot } = JSON.parse(watch) as Watch
  const inWindow = window as unknown as Record<string, Map<string, Promise<Outcome>> | undefined>
  const watches = (inWindow[slot] ??= new Map())
  watches.set(
    challengeId,
    new Promise<Outcome>((resolve) => {
      // The element that announced this challenge's signing: its success or error is the outcome.
      let host: EventTarget | null = null
      const listening = new AbortController()
      const done = (outcome: Outcome) => {
        listening.abort()
        clearTimeout(timer)
        resolve(outcome)
      }
      const timer = setTimeout(() => done({ event: 'none', signed: host !== null }), timeout)
      const on = (name: string, listener: (event: CustomEvent) => void) =>
        // Captured at the document, before the element's own listeners could stop it.
        document.addEventListener(`service-auth:${name}`, listener as EventListener, { capture: true, signal: listening.signal })
      on('signed', (event) => {
        if (event.detail?.challengeId === challengeId) host = event.target
      })
      on('success', (event) => {
        if (host !== null && event.target === host) done({ event: 'success' })
      })
      on('error', (event) => {
        if (host !== null && event.target === host) done({ event: 'error', reason: String(event.detail?.reason), status: Number(event.detail?.status) })
      })
    }),
  )
}

/** The outcome, once there is one; `gone` when this is another document than the one watched. */
async function outcomeInPage(_root: unknown, watch: string): Promise<Outcome> {
  const { challengeId, slot } = JSON.parse(watch) as Watch
  const watches = (window as unknown as Record<string, Map<string, Promise<Outcome>> | undefined>)[slot]
  const outcome = watches?.get(challengeId)
  if (!outcome) return { event: 'gone' }
  try {
    return await outcome
  } finally {
    watches!.delete(challengeId)
  }
}
