/**
 * The widget's lifecycle: one state machine per mounted element.
 *
 *   state         shows                           moves on to
 *   ------------  ------------------------------  ----------------------------------------------
 *   idle          a "Show a new code" button      loading: start(), the button
 *   loading       a placeholder                   ready: the service created a code
 *                                                 reconnecting: it failed (tried again by itself)
 *                                                 error: it refused, or the markup is wrong
 *   ready         the code and its countdown      ready: a poll found it not signed yet
 *                                                 signing: the phone signed it
 *                                                 loading: it expired (410, or its deadline
 *                                                   passed) or the service forgot it (404)
 *                                                 expired: that, after 5 minutes unattended
 *                                                 reconnecting: a poll failed
 *   reconnecting  the code, faded (if any)        whatever the step tried again leads to
 *   signing       a pulsing placeholder           (navigation): the controller accepted
 *                                                 signed: ... and the page's script took over
 *                                                 loading: the controller refused; "Sign-in
 *                                                   failed" shows beside the next code
 *   signed        "Signed in"                     -
 *   expired       a "Show a new code" button      loading: the button
 *   error         "Try again" (no button when     loading: the button
 *                 the markup is at fault)
 *
 * From any state, stop() leads to idle and destroy() removes the widget. A page that goes into
 * the back/forward cache stops its run, and starts a new one when it comes back.
 *
 * A run is the async part, from loading to signed, expired or error: named steps (showNewCode,
 * poll, handOver), each returning the next, and a failure's retry in between (recover). Each
 * transition checks where it starts from: start() only where no run is under way (and neither the
 * markup is at fault nor the widget destroyed), destroy() only once, and a run's steps only while
 * the run is still the widget's, since a listener may stop or destroy the widget as it hears of
 * the last step (move).
 */
import { createChallenge, pollStatus, type Challenge } from './api.js'
import { backoff } from './backoff.js'
import { followCallbacks } from './callbacks.js'
import { ATTRIBUTES, invalid, readConfig, toAppLink, type Config, type Options } from './config.js'
import { emit, type SuccessDetail } from './events.js'
import { confirm, type Next } from './hand-over.js'
import { failure, isFailure, type Failure } from './http.js'
import { sleep } from './timing.js'
import { createView, type Shown } from './view.js'

export type State = 'idle' | 'loading' | 'ready' | 'reconnecting' | 'signing' | 'signed' | 'expired' | 'error'

/** Controls one mounted widget. */
export interface Handle {
  /** Shows a fresh code and waits for the phone; does nothing while already running. */
  start(): void
  /** Stops every request and timer; the widget offers a button to start again. */
  stop(): void
  /** Stops, and removes what the widget added to the element. */
  destroy(): void
}

/** A code on screen: the challenge, and what the view shows of it. */
type Code = Challenge & Shown & { deadline: number }

/** A step of a run: it does its part and returns the next step, or nothing once the run is over. */
type Step = () => Promise<Step | void>

// The spec's long poll is held about a second; this floor keeps a service that answers at
// once (or a proxy that cuts the hold short) from being hammered.
const POLL_FLOOR = 1000
// Nobody is looking at a code that has been refreshed unattended this long: stop, offer a button.
const UNATTENDED = 5 * 60_000

/** Maps a challenge to what the view shows of it (the view model). */
const toCode = (challenge: Challenge, { imageKind, appUrl }: Config, message: Shown['message']): Code => {
  const data = challenge.authImagesData?.[imageKind]
  return {
    ...challenge,
    // Now plus its lifetime by the service's own clock, so a skewed clock here does not matter.
    deadline: Date.now() + Date.parse(challenge.expiresAt) - Date.parse(challenge.createdAt),
    imageSrc: data ? 'data:image/png;base64,' + data : challenge.authImages[imageKind],
    // On touch devices the code is also a link that opens the app (a phone cannot scan its own screen).
    link: appUrl && toAppLink(appUrl, challenge.id),
    message,
  }
}

/** Resolves when the tab is visible again. Aborting drops the listener and leaves it pending, which nothing awaits any more. */
const visible = (signal: AbortSignal) =>
  new Promise((resolve) => document.addEventListener('visibilitychange', resolve, { once: true, signal }))

/** Turns `el` into a sign-in widget; `onDestroy` runs once it is destroyed. */
export function createWidget(el: HTMLElement, options: Options | undefined, onDestroy: () => void): Handle {
  const setup = readConfig(el, options)
  const { config } = setup
  // What is wrong with the markup, from the start or as the service's answer shows it (an
  // image kind it does not offer): nothing runs until the page is fixed.
  let problem = setup.problem
  const life = new AbortController()
  // The latest run, if one ever started; aborted once it is over, however it ended.
  let run: AbortController | undefined
  // The epoch: long enough ago that the first poll is not held back.
  let lastPoll = 0
  // When the code on screen was created. The next code's first poll waits for that plus the floor,
  // not for the floor of the last poll: a code lives minutes, so a refreshed code is polled at
  // once, while codes that a service kills at once are replaced at most twice a second, not in a
  // tight loop.
  let lastCreated = 0

  const start = () => {
    // Not while a run is under way, nor once destroyed or while the markup is wrong.
    const running = run && !run.signal.aborted
    if (config && !problem && !running && !life.signal.aborted) go(config, (run = new AbortController()))
  }
  const halt = () => run?.abort()
  // Its button always starts afresh.
  const view = createView(el, setup.texts, setup.locale, start)
  /** Stops at a failure that no retry mends: the error state, with a button unless the markup is at fault. */
  const fail = (failed: Failure) => {
    // The markup's problem names the attribute ("data-service-key is missing or invalid").
    if (failed.reason == 'config') console.error((problem = failed.message))
    emit(el, 'error', { reason: failed.reason, status: failed.status })
    view.show('error', { button: !problem })
  }

  followCallbacks(el, setup.callbacks, life.signal)
  // The back/forward cache restores the page with its old challenge, which the sign-in that
  // led away from it may have consumed: never resume it. The run stops as the page goes into the
  // cache (nothing in flight keeps it out), and a fresh one starts when it comes back.
  addEventListener(
    'pagehide',
    (event) => {
      if (event.persisted) halt()
    },
    life,
  )
  addEventListener(
    'pageshow',
    (event) => {
      if (event.persisted && run) start()
    },
    life,
  )

  /** One run: from a new code to a sign-in, a refusal or an abort. `current` is aborted once it is over. */
  async function go(config: Config, current: AbortController): Promise<void> {
    const { signal } = current
    let refreshingSince = Date.now()
    // Failures in a row, for the backoff; only a poll that finds a code not signed yet clears it.
    let failures = 0
    // The code on screen, if any: reconnecting keeps it in view, as it still works.
    let onScreen: Code | undefined
    // That the last sign-in failed, said in place of "scan with the app" beside the next code (only).
    let notice: 'failed' | undefined

    /**
     * Moves to `to`, if this run is still the widget's: a listener may have stopped or destroyed
     * the widget as it heard of the last step, and then the run ends here (the abort is quiet).
     */
    const move = (to: State, shown?: Shown) => {
      signal.throwIfAborted()
      view.show(to, shown)
    }

    /** loading > ready: asks the service for a code and shows it. */
    const showNewCode: Step = async () => {
      move('loading', { message: notice })
      // Not in the task that mounted the widget: one destroyed in the same task (React's
      // StrictMode mounts, unmounts and mounts again) sends nothing.
      await sleep(0, signal)
      const challenge = await createChallenge(config, signal)
      const code = (onScreen = toCode(challenge, config, notice))
      lastPoll = lastCreated
      lastCreated = Date.now()
      notice = undefined
      emit(el, 'ready', { challengeId: challenge.id, expiresAt: challenge.expiresAt })
      move('ready', code)
      return poll(code)
    }

    /** ready > ready, signing, loading or expired: one long poll of the code on screen. */
    const poll =
      (code: Code): Step =>
      async () => {
        const wait = lastPoll + POLL_FLOOR - Date.now()
        if (wait > 0) await sleep(wait, signal)
        if (document.hidden) {
          // Hidden tabs make no requests (checked after the wait, which the tab may have spent
          // going away). Someone coming back is attending again, so refreshing the code for them
          // restarts the unattended clock.
          await visible(signal)
          refreshingSince = Date.now()
          return poll(code)
        }
        lastPoll = Date.now()
        // Past the code's deadline, it is expired without asking.
        const outcome = lastPoll > code.deadline ? 'expired' : await pollStatus(code.pollingUrl, code.deadline, signal)
        if (outcome == 'pending') {
          // The service answers again: a backoff starts afresh.
          failures = 0
          move('ready', code)
          return poll(code)
        }
        // From here on the code is gone: a signed challenge counts as consumed, and is never polled again.
        onScreen = undefined
        if (typeof outcome == 'object') return handOver(code, outcome.token)
        if (outcome == 'expired') emit(el, 'expired', { challengeId: code.id })
        if (Date.now() - refreshingSince > UNATTENDED) return move('expired', { button: true })
        return showNewCode
      }

    /** signing > (navigation), signed or loading: hands the token to the controller. */
    const handOver = async (code: Code, token: string): Promise<Step | void> => {
      emit(el, 'signed', { challengeId: code.id })
      move('signing')
      let next: Next
      try {
        // Never retried: the token is single-use, and a refusal is an answer.
        next = await confirm(config, token, signal)
      } catch (error) {
        if (!isFailure(error)) throw error
        emit(el, 'error', { reason: error.reason, status: error.status })
        notice = 'failed'
        // Backed off as any failure is, and the count is cleared only by a poll that finds the
        // next code unsigned: a service handing out tokens nobody signed cannot make the page
        // call the controller, with this origin's cookies, twice a second. Nor does a refusal
        // count as attention: such a loop ends with the unattended limit.
        await sleep(backoff(0, failures++), signal)
        return showNewCode
      }
      // Where the controller said (null: reload), unless a listener cancelled the event: then the
      // page's own script goes on from here, and the widget says the person is signed in.
      const detail: SuccessDetail = {}
      if (next) {
        detail.location = next.href
        // The path a single-page router takes as it is (React Router reads an absolute URL as a path).
        if (next.origin == location.origin) detail.path = next.pathname + next.search + next.hash
      }
      if (!emit(el, 'success', detail, true)) return move('signed')
      if (next) location.assign(next.href)
      else location.reload()
    }

    /** After a failure: reconnecting, then the same step again after the backoff; or the error state. */
    const recover = async (failed: Failure, step: Step): Promise<Step | void> => {
      const { reason, status } = failed
      if (reason != 'network' && reason != 'response' && reason != 'service') {
        if (reason == 'rejected') {
          // The key, the origin or the API URL is wrong: the integrator needs the service's reason.
          console.error(invalid(ATTRIBUTES.apiKey + ' or ' + ATTRIBUTES.api) + ': ' + status + ' ' + failed.message)
        }
        return fail(failed)
      }
      const retryAfter = backoff(failed.retryAfter, failures++)
      emit(el, 'error', { reason, status, retryAfter })
      move('reconnecting', onScreen)
      await sleep(retryAfter, signal)
      return step
    }

    let step: Step | void = showNewCode
    try {
      while (step) {
        const current: Step = step
        try {
          step = await current()
        } catch (error) {
          if (!isFailure(error)) throw error
          step = await recover(error, current)
        }
      }
    } catch {
      // An abort ends the run quietly. Anything else here is a bug of ours: say so visibly rather
      // than freeze.
      if (!signal.aborted) fail(failure('internal'))
    } finally {
      current.abort()
    }
  }

  if (problem) fail(failure('config', undefined, problem))
  else if (config?.autoStart) start()
  else view.show('idle', { button: true })

  return {
    start,
    stop() {
      halt()
      if (!problem) view.show('idle', { button: true })
    },
    destroy() {
      if (life.signal.aborted) return
      halt()
      life.abort()
      view.dispose()
      onDestroy()
    },
  }
}
