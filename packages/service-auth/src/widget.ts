/**
 * The widget's lifecycle: one state machine per mounted element. `State` is what the view shows
 * (and the root's `data-state`); the events go out as the transitions happen.
 *
 * | From                  | When                                                  | To                                 |
 * | --------------------- | ----------------------------------------------------- | ---------------------------------- |
 * | (mount)               | the markup is usable (and autoStart is not off)        | loading                            |
 * | (mount)               | autoStart is off                                      | idle, with a button                |
 * | (mount)               | the markup is not usable                              | error, without a button            |
 * | idle, expired, error  | start(), or the button                                | loading                            |
 * | loading               | the service created a challenge                       | ready (`ready`)                    |
 * | ready                 | a poll finds it not signed yet                        | ready                              |
 * | ready                 | it expired (410, or its deadline passed)              | loading, for a new code (`expired`) |
 * | ready                 | the service no longer knows it (404)                  | loading, for a new code            |
 * | ready                 | codes were replaced for 5 minutes unattended          | expired, with a button             |
 * | ready                 | the phone signed it                                   | signing (`signed`)                 |
 * | signing               | the controller answered                               | navigation (`success`)             |
 * | signing               | a listener cancelled `success`                        | signed                             |
 * | signing               | the controller refused                                | loading, saying so (`error`)       |
 * | loading, ready        | no answer, 5xx, 429, or a malformed answer            | reconnecting (`error`), then back  |
 * | loading               | the service refused (4xx), or the markup is at fault  | error (`error`)                    |
 * | any                   | stop()                                                | idle, with a button                |
 * | any                   | a bug of ours                                         | error (`error`, reason `internal`) |
 */
import { createChallenge, pollStatus, type Challenge } from './api.js'
import { backoff } from './backoff.js'
import { listenForCallbacks } from './callbacks.js'
import { readConfig, readTexts, toAppLink, type Config, type Options } from './config.js'
import { emit } from './events.js'
import { handOver, type Next } from './hand-over.js'
import { failure, isFailure, misconfigured, type Failure } from './http.js'
import { nextTask, sleep } from './timing.js'
import { createView, type Shown, type View } from './view.js'

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

// The spec's long poll is held about a second; this floor keeps a service that answers at
// once (or a proxy that cuts the hold short) from being hammered.
const POLL_FLOOR = 1000
// Nobody is looking at a code that has been refreshed unattended this long: stop, offer a button.
const UNATTENDED = 5 * 60_000

/** Mounts a widget on `el`; `onDestroy` runs once it is destroyed. */
export function createWidget(el: HTMLElement, options: Options | undefined, onDestroy: () => void): Handle {
  const config = readConfig(el, options)
  const life = new AbortController()
  listenForCallbacks(el, life.signal)
  // The latest run, if one ever started; aborted once it is over, however it ended.
  let run: AbortController | undefined
  // The epoch: long enough ago that the first poll is not held back (sleep takes a negative wait as none).
  let lastPoll = 0
  // When the code on screen was created. The next code's first poll waits for that plus the floor,
  // not for the floor of the last poll: a code lives minutes, so a refreshed code is polled at
  // once, while codes that a service kills at once are replaced at most twice a second, not in a
  // tight loop.
  let lastCreated = 0
  // What is wrong with the markup or options, from the start or once the service's answer shows
  // it (an image kind it does not offer). Trying again cannot mend it: nothing starts any more.
  let problem = config.problem
  // Made once needed: for a widget that starts, once its first request has left, which need not
  // wait for it (see showNewCode).
  let built: View | undefined
  const view = (): View => {
    // Its button always starts afresh.
    built ||= createView(el, readTexts(config, el), start)
    return built
  }

  const start = () => {
    if ((run && !run.signal.aborted) || problem || life.signal.aborted) return
    run = new AbortController()
    // Without a problem, the configuration is usable.
    void runUntilDone(run, config as Config)
  }

  /** Reports a failure: with `retrying`, what stays shown while the widget retries by itself (`reconnecting`); without, `error`. */
  const fail = (reported: Failure, retrying?: Shown) => {
    const { reason, status, retryAfter, explanation } = reported
    // The markup is at fault: the problem names the attribute ("data-service-key is missing or
    // invalid"), so no prefix is needed.
    if (reported.problem) {
      problem = reported.problem
      console.error(problem)
    }
    // The service's own reason, which otherwise only the network tab shows; never the token.
    if (reason == 'rejected') {
      console.error(`service-auth: the service refused a code (${status}): ${explanation || 'no reason given'} Check data-service-key, data-service-api.`)
    }
    // Which field of its answer was of no use, which not even the network tab shows.
    if (reported.field) console.error(`service-auth: the service's ${reported.field} is missing or invalid (${status}).`)
    emit(el, 'error', retrying ? { reason, status, retryAfter } : { reason, status })
    // No button for a problem in the markup: trying again cannot fix it.
    view().show(retrying ? 'reconnecting' : 'error', retrying || { button: !problem })
  }

  // The back/forward cache restores the page with its old challenge, which the sign-in that
  // led away from it may have consumed: never resume it. The run stops as the page goes into the
  // cache (nothing in flight keeps it out), and a fresh one starts when it comes back.
  addEventListener(
    'pagehide',
    (event) => {
      if (event.persisted) run?.abort()
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

  /** One run, from a first code until signed in, refused or aborted; `current` is aborted once it is over. */
  async function runUntilDone(current: AbortController, usable: Config): Promise<void> {
    const { signal } = current
    let refreshingSince = Date.now()
    let failures = 0
    // The code on screen: the challenge, when it expires (epoch ms, this browser's clock), and
    // what the view shows of it.
    let challenge: Challenge | undefined
    let deadline = 0
    let shown: Shown = {}
    // That the last sign-in failed, said in place of "scan with the app" beside the next code (only).
    let notice: 'failed' | undefined

    /** loading → ready: a new challenge, its code shown. */
    const showNewCode = async () => {
      // The request first, then what the person sees: a widget's first view is built here, while
      // its first request is in flight.
      const created = createChallenge(usable, signal)
      view().show('loading', { message: notice })
      challenge = await created
      deadline = Date.now() + challenge.lifetime
      shown = {
        imageSrc: challenge.imageSrc,
        deadline,
        // On touch devices the code is also a link that opens the app (a phone cannot scan its own screen).
        link: config.appUrl && toAppLink(config.appUrl, challenge.id),
        message: notice,
      }
      lastPoll = lastCreated
      lastCreated = Date.now()
      notice = undefined
      emit(el, 'ready', { challengeId: challenge.id, expiresAt: challenge.expiresAt })
      view().show('ready', shown)
    }

    /** signing → (navigation) or signed; a refusal → loading, saying so. Resolves true when the run is over. */
    const handOverToken = async (signed: Challenge, token: string): Promise<boolean> => {
      // From here on the challenge counts as consumed: it is never polled again, whatever follows.
      emit(el, 'signed', { challengeId: signed.id })
      challenge = undefined
      view().show('signing')
      let next: Next
      try {
        // Never retried: the token is single-use, and a refusal is an answer.
        next = await handOver(usable, token, signal)
      } catch (error) {
        if (!isFailure(error)) throw error
        emit(el, 'error', error)
        notice = 'failed'
        // Backed off as any failure is, and the count is cleared only by a poll that finds
        // the next code unsigned: a service handing out tokens nobody signed cannot make
        // the page call the controller, with this origin's cookies, twice a second. Nor
        // does a refusal count as attention: such a loop ends with the unattended limit.
        await sleep(backoff(0, failures++), signal)
        return false
      }
      // Where the controller said (null: reload), unless a listener cancelled the event: then
      // the page's own script goes on from here, and the widget says the person is signed in.
      // `path` is the same place for a single-page app's router, when it is on this origin.
      const path = next && next.origin == location.origin ? next.pathname + next.search + next.hash : undefined
      if (!emit(el, 'success', { location: next?.href, path }, true)) view().show('signed')
      else if (next) location.assign(next.href)
      else location.reload()
      return true
    }

    /** ready → ready, signing, or loading: waits its turn, then one long poll of the code on screen. Resolves true when the run is over. */
    const poll = async (polled: Challenge): Promise<boolean> => {
      await sleep(lastPoll + POLL_FLOOR - Date.now(), signal)
      if (document.hidden) {
        // Hidden tabs make no requests (checked after the wait, which the tab may have spent
        // going away). Someone coming back is attending again, so refreshing the code for them
        // restarts the unattended clock. (Aborting drops the listener and leaves this promise
        // pending for good, which is fine: nothing else refers to the aborted run.)
        await new Promise((visible) => document.addEventListener('visibilitychange', visible, { once: true, signal }))
        refreshingSince = Date.now()
        return false
      }
      lastPoll = Date.now()
      const outcome = await pollStatus(polled.pollingUrl, deadline, signal)
      if (outcome == 'pending') {
        // The service answers again: a backoff starts afresh, and a reconnecting code is ready again.
        failures = 0
        view().show('ready', shown)
        return false
      }
      if (typeof outcome == 'object') return handOverToken(polled, outcome.token)
      if (outcome == 'expired') emit(el, 'expired', { challengeId: polled.id })
      challenge = undefined
      if (Date.now() - refreshingSince <= UNATTENDED) return false
      view().show('expired', { button: true })
      return true
    }

    try {
      // Not in the task that started it: a widget destroyed in that same task sends nothing.
      await nextTask()
      if (signal.aborted) return
      for (let over = false; !over; ) {
        try {
          if (challenge) over = await poll(challenge)
          else await showNewCode()
        } catch (error) {
          if (!isFailure(error)) throw error
          if (error.reason == 'rejected' || error.reason == 'config') {
            fail(error)
            return
          }
          fail(error, challenge ? shown : {})
          await sleep(backoff(error.retryAfter, failures++), signal)
        }
      }
    } catch (error) {
      // An abort ends the run quietly. Anything else here is a bug of ours: say so visibly rather
      // than freeze, and show the console what it was.
      if (!signal.aborted) {
        console.error(error)
        fail(failure('internal'))
      }
    } finally {
      current.abort()
    }
  }

  if (config.problem) fail(misconfigured(config.problem))
  else if (config.autoStart) start()
  else view().show('idle', { button: true })

  return {
    start,
    stop() {
      run?.abort()
      // Not once destroyed: that would build the view again.
      if (!problem && !life.signal.aborted) view().show('idle', { button: true })
    },
    destroy() {
      if (life.signal.aborted) return
      run?.abort()
      life.abort()
      built?.dispose()
      onDestroy()
    },
  }
}
