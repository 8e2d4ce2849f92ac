// One run of a widget's state machine (see widget.ts): from a first code until signed in,
// stopped for good, or aborted. Everything it knows is one record, `Run`; it changes what the
// widget shows only through the widget's `Machine`, whose transition() checks each move.
import { createChallenge, pollStatus, type Challenge } from './api.js'
import { backoff } from './backoff.js'
import { toAppLink, type Config } from './config.js'
import { emit } from './events.js'
import { ServiceAuthFailure } from './failure.js'
import { handOver, type Next } from './hand-over.js'
import type { State } from './state.js'
import { nextTask, sleep } from './timing.js'
import type { Shown } from './view.js'

// The spec's long poll is held about a second; this floor keeps a service that answers at
// once (or a proxy that cuts the hold short) from being hammered.
const POLL_FLOOR = 1000
// Nobody is looking at a code that has been refreshed unattended this long: stop, offer a button.
const UNATTENDED = 5 * 60_000
// Sign-ins a controller may refuse in one run before it stops.
const REFUSALS = 3

/** What a run needs of its widget: where it is, what it was told, and how it changes what it shows. */
export interface Machine {
  el: HTMLElement
  config: Config
  /** What the widget shows now. */
  readonly state: State
  /** Moves to `to` and shows it; a move the diagram does not have throws, as the bug it is. */
  transition(to: State, shown?: Shown): void
  /** Tells the console (what the failure says, if anything) and the page (the error event). */
  report(failure: ServiceAuthFailure, retrying?: boolean): void
  /** Reports a failure and shows it: with `retrying`, what stays shown while the run retries by itself (`reconnecting`); without, `error`. */
  fail(failure: ServiceAuthFailure, retrying?: Shown): void
}

/** Everything one run knows. */
export interface Run {
  /** Aborts whatever the run has in flight; aborted once the run is over, however it ended. */
  life: AbortController
  /** The code on screen, until it is consumed, expires or is forgotten. */
  challenge?: Challenge
  /** What the view shows of it. */
  shown: Shown
  /** When the code on screen expires (epoch ms, this browser's clock). */
  expires: number
  /** When the code on screen was created. */
  created: number
  /**
   * The next poll's earliest time. A new code's first poll waits for the last code's creation
   * plus the floor, not for the last poll: a code lives minutes, so a refreshed code is polled at
   * once, while codes that a service kills at once are replaced at most twice a second.
   */
  nextPoll: number
  /** Since when codes have been replaced with nobody looking (hidden time does not count). */
  unattendedSince: number
  /** Failures in a row, for the backoff; a poll that finds the code unsigned clears them. */
  failures: number
  /** Sign-ins the controller refused; the third ends the run. */
  refusals: number
  /** That the last sign-in failed, said in place of "scan with the app" beside the next code (only). */
  notice?: 'failed'
}

/** A run's record as it starts: no code yet, nothing failed. */
export const newRun = (): Run => ({
  life: new AbortController(),
  shown: {},
  expires: 0,
  created: 0,
  nextPoll: 0,
  unattendedSince: Date.now(),
  failures: 0,
  refusals: 0,
})

/** One run, until signed in, stopped for good or aborted; its `life` is aborted once it is over. */
export async function runUntilDone(m: Machine, run: Run): Promise<void> {
  const { signal } = run.life
  try {
    // Not in the task that started it: a widget destroyed in that same task sends nothing.
    await nextTask()
    for (let over = signal.aborted; !over; ) {
      try {
        over = run.challenge ? await poll(m, run, run.challenge) : await showNewCode(m, run)
      } catch (error) {
        if (!(error instanceof ServiceAuthFailure)) throw error
        // Refused, or the markup is at fault: no retry by itself will mend it.
        if (error.final) return m.fail(error)
        m.fail(error, run.challenge ? run.shown : {})
        await sleep(backoff(error.retryAfter, run.failures++), signal)
      }
    }
  } catch (error) {
    // An abort ends the run quietly. Anything else here is a bug of ours: say so visibly rather
    // than freeze, and show the console what it was.
    if (!signal.aborted) {
      console.error(error)
      m.fail(new ServiceAuthFailure('internal'))
    }
  } finally {
    run.life.abort()
  }
}

/** loading → ready: a new challenge, its code shown. Resolves false: the run goes on. */
async function showNewCode({ el, config, transition }: Machine, run: Run): Promise<false> {
  // The request first, then what the person sees: a widget's first view is built here, while
  // its first request is in flight.
  const created = createChallenge(config, run.life.signal)
  transition('loading', { message: run.notice })
  const challenge = await created
  run.challenge = challenge
  run.expires = Date.now() + challenge.lifetime
  run.shown = {
    imageSrc: challenge.imageSrc,
    deadline: run.expires,
    // On touch devices the code is also a link that opens the app (a phone cannot scan its own screen).
    link: config.appUrl && toAppLink(config.appUrl, challenge.id),
    message: run.notice,
  }
  run.nextPoll = run.created + POLL_FLOOR
  run.created = Date.now()
  run.notice = undefined
  // Shown, then said: a listener sees the code on the page, and may destroy the widget.
  transition('ready', run.shown)
  emit(el, 'ready', { challengeId: challenge.id, expiresAt: challenge.expiresAt })
  return false
}

/** ready → ready, signing, loading or expired: waits its turn, then one long poll of the code on screen. Resolves true when the run is over. */
async function poll(m: Machine, run: Run, polled: Challenge): Promise<boolean> {
  const { signal } = run.life
  await sleep(run.nextPoll - Date.now(), signal)
  if (document.hidden) {
    // Hidden tabs make no requests (checked after the wait, which the tab may have spent
    // going away). Someone coming back is attending again, so refreshing the code for them
    // restarts the unattended clock. (Aborting drops the listener and leaves this promise
    // pending for good, which is fine: nothing else refers to the aborted run.)
    await new Promise((visible) => document.addEventListener('visibilitychange', visible, { once: true, signal }))
    run.unattendedSince = Date.now()
    return false
  }
  run.nextPoll = Date.now() + POLL_FLOOR
  if (away(m.el)) return false
  const outcome = await pollStatus(polled.pollingUrl, run.expires, signal)
  if (outcome == 'pending') {
    // The service answers again: a backoff starts afresh, and a reconnecting code is ready again.
    run.failures = 0
    m.transition('ready', run.shown)
    return false
  }
  // A token is handed over only from a widget in the page: its code is polled again once it is back.
  if (typeof outcome == 'object') return !away(m.el) && handOverToken(m, run, polled, outcome.token)
  if (outcome == 'expired') emit(m.el, 'expired', { challengeId: polled.id })
  run.challenge = undefined
  if (Date.now() - run.unattendedSince <= UNATTENDED) return false
  m.transition('expired', { button: true })
  return true
}

/**
 * Whether the widget's element is out of the page, where it makes no request and hands no token
 * over. No observer need have said so: none runs in a frame the browser does not render (hidden,
 * or cross-origin and out of view), where a removed widget went on polling, and could sign the
 * person in. The CDN build's sweep then destroys it; a widget kept aside (by a framework, say)
 * waits to be back.
 */
function away(el: Element): boolean {
  if (el.isConnected) return false
  ;(self as CdnGlobal).ServiceAuth?.sweep()
  return true
}

/** The CDN build's global (auto.ts), where there is one: its sweep destroys the widgets it mounted. */
type CdnGlobal = { ServiceAuth?: { sweep(): void } }

/** signing → (navigation) or signed; a refusal → loading, saying so, and the third → error. Resolves true when the run is over. */
async function handOverToken(m: Machine, run: Run, signed: Challenge, token: string): Promise<boolean> {
  const { el, transition } = m
  // From here on the challenge counts as consumed: it is never polled again, whatever follows.
  emit(el, 'signed', { challengeId: signed.id })
  run.challenge = undefined
  transition('signing')
  let next: Next
  try {
    // Never retried: the token is single-use, and a refusal is an answer.
    next = await handOver(m.config, token, run.life.signal)
  } catch (error) {
    if (!(error instanceof ServiceAuthFailure)) throw error
    // Three in a row, and the run stops with a button: a key that signs by itself, or a
    // controller that refuses everyone, cannot loop.
    if (++run.refusals >= REFUSALS) {
      m.fail(error)
      return true
    }
    run.notice = 'failed'
    // Shown at once, then said: not "Signing in…" for as long as the backoff lasts.
    transition('loading', { message: run.notice })
    m.report(error, true)
    // Backed off as any failure is, and the count is cleared only by a poll that finds the next
    // code unsigned: a service handing out tokens nobody signed cannot make the page call the
    // controller, with this origin's cookies, twice a second.
    await sleep(backoff(error.retryAfter, run.failures++), run.life.signal)
    return false
  }
  // Where the controller said, unless a listener cancelled the event: then the page's own script
  // goes on from here, and the widget says the person is signed in. `path` is the same place for a
  // single-page app's router, when it is on this origin. A controller that named no place leaves
  // the page as it is: a reload would show a login page that may sign in again by itself.
  const path = next && next.origin == self.origin ? next.pathname + next.search + next.hash : undefined
  if (emit(el, 'success', { location: next?.href, path }, true) && next) location.assign(next.href)
  else transition('signed')
  if (!next) console.warn('service-auth: no location from the controller: answer {"location": "/welcome"}.')
  return true
}
