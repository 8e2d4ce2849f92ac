/**
 * The widget's lifecycle: one state machine per mounted element, after turbo's Visit. The states
 * are named in state.ts, which also holds this diagram's moves as data; `transition()` checks each
 * move against it, and takes one the diagram does not have for the bug it is (a run that was
 * aborted meanwhile, by a listener that stopped the widget, say, ends there quietly). A run (one
 * record, `Run`) goes from a first code until signed in, stopped for good, or aborted.
 *
 * | From                  | When                                                  | To                                 |
 * | --------------------- | ----------------------------------------------------- | ---------------------------------- |
 * | (mount)               | autoStart is off                                      | idle, with a button                |
 * | (mount)               | the markup is not usable                              | error, without a button            |
 * | any but a run's       | start(), the button, autoStart (the next task)        | loading                            |
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
 *
 * (`reconnecting` goes on as the state it stands for: ready while a code is shown, else loading.)
 */
import { createChallenge, pollStatus, type Challenge } from './api.js'
import { backoff } from './backoff.js'
import { listenForCallbacks } from './callbacks.js'
import { readConfig, readTexts, toAppLink, type Config, type Options } from './config.js'
import { emit } from './events.js'
import { handOver, type Next } from './hand-over.js'
import { ServiceAuthFailure } from './failure.js'
import { move, type State } from './state.js'
import { nextTask, sleep } from './timing.js'
import { createView, type Shown, type View } from './view.js'

export type { State } from './state.js'

/** Controls one mounted widget. */
export interface Handle {
  /** Shows a fresh code and waits for the phone; does nothing while already running. */
  start(): void
  /** Stops every request and timer; the widget offers a button to start again. */
  stop(): void
  /** Stops, and shows a new code at once. */
  reset(): void
  /** Stops, and removes what the widget added to the element. */
  destroy(): void
  /** What the widget shows now. */
  readonly state: State
}

/**
 * What a React ref, a Vue component's `expose` and a `<service-auth>` element offer of their
 * widget: its handle but for destroy(), which their own lifecycle does; `state` is undefined
 * while none is mounted.
 */
export type Controls = Pick<Handle, 'start' | 'stop' | 'reset'> & { readonly state: State | undefined }

// The spec's long poll is held about a second; this floor keeps a service that answers at
// once (or a proxy that cuts the hold short) from being hammered.
const POLL_FLOOR = 1000
// Nobody is looking at a code that has been refreshed unattended this long: stop, offer a button.
const UNATTENDED = 5 * 60_000
// Sign-ins a controller may refuse in one run before it stops.
const REFUSALS = 3

/** What a run needs of its widget: where it is, what it was told, and how it changes what it shows. */
interface Machine {
  el: HTMLElement
  config: Config
  /** Moves to `to` and shows it; a move the diagram does not have throws, as the bug it is. */
  transition(to: State, shown?: Shown): void
  /** Tells the console (what the failure says, if anything) and the page (the error event). */
  report(failure: ServiceAuthFailure, retrying?: boolean): void
  /** Reports a failure and shows it: with `retrying`, what stays shown while the run retries by itself (`reconnecting`); without, `error`. */
  fail(failure: ServiceAuthFailure, retrying?: Shown): void
}

/** Everything one run knows. */
interface Run {
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

/** Mounts a widget on `el`; `onDestroy` runs once it is destroyed. */
export function createWidget(el: HTMLElement, options: Options | undefined, onDestroy: () => void): Handle {
  const config = readConfig(el, options)
  const life = new AbortController()
  listenForCallbacks(el, life.signal)
  let state: State = 'idle'
  let run: Run | undefined
  // What is wrong with the markup or options, from the start or once the service's answer shows
  // it (an image kind it does not offer). Trying again cannot mend it: nothing starts any more.
  let problem = config.problem
  // Made once needed: for a widget that starts, once its first request has left, which need not
  // wait for it (see showNewCode). Its button always starts afresh.
  let built: View | undefined
  const view = () => (built ||= createView(el, ...readTexts(config), start, imageLoaded))

  const machine: Machine = {
    el,
    // Read by runs only, which start only without a problem: then the configuration is usable.
    config: config as Config,
    transition(to, shown) {
      state = move(state, to)
      view().show(to, shown)
    },
    report(reported, retrying) {
      if (reported.message) console.error('service-auth: ' + reported.message)
      emit(el, 'error', reported.detail(retrying))
    },
    fail,
  }

  function start() {
    if ((run && !run.life.signal.aborted) || problem || life.signal.aborted) return
    run = { life: new AbortController(), shown: {}, expires: 0, created: 0, nextPoll: 0, unattendedSince: Date.now(), failures: 0, refusals: 0 }
    void runUntilDone(machine, run)
  }

  function fail(reported: ServiceAuthFailure, retrying?: Shown) {
    // The markup is at fault, from the start or as the service's answer shows: its message
    // names the attribute ("data-service-key is missing or invalid").
    if (reported.reason == 'config') problem = reported.message
    machine.report(reported, !!retrying)
    // No button for a problem in the markup: trying again cannot fix it.
    machine.transition(retrying ? 'reconnecting' : 'error', retrying || { button: !problem })
  }

  // The QR image did not load: the page's Content-Security-Policy lacks its source, most likely.
  // A new code once; if its image fails too, the error state, naming what img-src must allow.
  // An image that loads clears that.
  let imageFailed = false
  const imageLoaded = (loaded: boolean) => {
    const src = run?.shown.imageSrc
    if (loaded || !src || (state != 'ready' && state != 'reconnecting')) {
      imageFailed = false
      return
    }
    run!.life.abort()
    imageFailed = !imageFailed
    if (imageFailed) return start()
    const origin = /^data:/.test(src) ? 'data:' : new URL(src).origin
    fail(new ServiceAuthFailure('image', `the QR image did not load: does the page's Content-Security-Policy allow img-src ${origin}?`, undefined, true))
  }

  // The back/forward cache restores the page with its old challenge, which the sign-in that
  // led away from it may have consumed: never resume it. The run stops as the page goes into the
  // cache (nothing in flight keeps it out), and a fresh one starts when it comes back.
  addEventListener('pagehide', (event) => event.persisted && run?.life.abort(), life)
  addEventListener('pageshow', (event) => event.persisted && run && start(), life)

  if (problem) fail(new ServiceAuthFailure('config', problem))
  else if (config.autoStart) start()
  else machine.transition('idle', { button: true })

  const stop = () => {
    run?.life.abort()
    // Not once destroyed: that would build the view again.
    if (!problem && !life.signal.aborted) machine.transition('idle', { button: true })
  }
  return {
    start,
    stop,
    reset() {
      stop()
      start()
    },
    destroy() {
      if (life.signal.aborted) return
      run?.life.abort()
      life.abort()
      built?.dispose()
      onDestroy()
    },
    get state() {
      return state
    },
  }
}

/** One run, until signed in, stopped for good or aborted; its `life` is aborted once it is over. */
async function runUntilDone(m: Machine, run: Run): Promise<void> {
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
  emit(el, 'ready', { challengeId: challenge.id, expiresAt: challenge.expiresAt })
  transition('ready', run.shown)
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
  const outcome = await pollStatus(polled.pollingUrl, run.expires, signal)
  if (outcome == 'pending') {
    // The service answers again: a backoff starts afresh, and a reconnecting code is ready again.
    run.failures = 0
    m.transition('ready', run.shown)
    return false
  }
  if (typeof outcome == 'object') return handOverToken(m, run, polled, outcome.token)
  if (outcome == 'expired') emit(m.el, 'expired', { challengeId: polled.id })
  run.challenge = undefined
  if (Date.now() - run.unattendedSince <= UNATTENDED) return false
  m.transition('expired', { button: true })
  return true
}

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
    m.report(error, true)
    run.notice = 'failed'
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
  const path = next && next.origin == location.origin ? next.pathname + next.search + next.hash : undefined
  if (emit(el, 'success', { location: next?.href, path }, true) && next) location.assign(next.href)
  else transition('signed')
  if (!next) console.warn('service-auth: the controller named no location, so the page stays: answer {"location": "/welcome"}.')
  return true
}
