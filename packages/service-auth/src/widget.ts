/**
 * The widget's lifecycle: one state machine per mounted element, after turbo's Visit. The states
 * are named in state.ts, which also holds this diagram's moves as data; `transition()` checks each
 * move against it, and takes one the diagram does not have for the bug it is (a run that was
 * aborted meanwhile, by a listener that stopped the widget, say, ends there quietly). Here: the
 * widget, its handle, and its machine, the one place its state changes. In run.ts: a run, from a
 * first code until signed in, stopped for good or aborted, its record (`Run`), its polls and its
 * hand-over.
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
import { listenForCallbacks } from './callbacks.js'
import { readConfig, readTexts, type Config, type Misconfigured, type Options } from './config.js'
import { emit } from './events.js'
import { ServiceAuthFailure } from './failure.js'
import { newRun, runUntilDone, type Machine, type Run } from './run.js'
import { move, type State } from './state.js'
import { createView, type Shown, type View } from './view.js'

export type { State } from './state.js'

// How long a starting widget says nothing, waiting for its first code, before it says
// "Loading…". Laid out while the request was out, that text (on many pages the first text laid
// out) held the code's paint back by 4 to 6 ms on a first visit in A/B runs (BENCHMARKS.md), to
// say something too brief to read.
export const LOADING_SHOWN_AFTER = 300

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

/**
 * Mounts a widget on `el`. `onCreate` has its handle before it starts, so that a listener of its
 * first event (a markup error, at once) can find it, and destroy it; `onDestroy` runs once it is
 * destroyed.
 */
export function createWidget(el: HTMLElement, options: Options | undefined, onDestroy: () => void, onCreate?: (handle: Handle) => void): Handle {
  const config = readConfig(el, options)
  const life = new AbortController()
  listenForCallbacks(el, life.signal)
  let run: Run | undefined
  // The QR image did not load: the page's Content-Security-Policy lacks its source, most likely.
  // A new code once; if its image fails too, the error state, naming what img-src must allow.
  // An image that loads clears that.
  let imageFailed = false
  const onImage = (failed?: string) => {
    if (!failed) {
      imageFailed = false
      return
    }
    // A code on show is a run's.
    run!.life.abort()
    imageFailed = !imageFailed
    if (imageFailed) return start()
    const origin = failed.startsWith('data:') ? 'data:' : new URL(failed).origin
    m.fail(new ServiceAuthFailure('image', `the QR image did not load: does the page's CSP allow img-src ${origin}?`))
  }
  const m = createMachine(el, config, start, onImage)

  function start() {
    if ((run && !run.life.signal.aborted) || m.problem || life.signal.aborted) return
    run = newRun()
    void runUntilDone(m, run)
  }
  const stop = () => {
    run?.life.abort()
    // Not once destroyed: that would build the view again.
    if (!m.problem && !life.signal.aborted) m.transition('idle', { button: true })
  }

  // The back/forward cache restores the page with its old challenge, which the sign-in that
  // led away from it may have consumed: never resume it. The run stops as the page goes into the
  // cache (nothing in flight keeps it out), and a fresh one starts when it comes back.
  addEventListener('pagehide', (event) => event.persisted && run?.life.abort(), life)
  // (Not one stopped on purpose: stop() leaves it idle.)
  addEventListener('pageshow', (event) => event.persisted && run && m.state != 'idle' && start(), life)

  const handle: Handle = {
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
      m.dispose()
      onDestroy()
    },
    get state() {
      return m.state
    },
  }
  onCreate?.(handle)
  if (config.problem) m.fail(new ServiceAuthFailure('config', config.problem))
  else if (config.autoStart) start()
  else stop()
  return handle
}

/**
 * A widget's state, and the one place that changes it: each move checked against the diagram,
 * then shown; failures reported to the console and the page. Its view is built at the first
 * move; a starting widget's says nothing until its first code comes, or LOADING_SHOWN_AFTER after
 * its request left without one. The view's button runs `start`.
 */
function createMachine(
  el: HTMLElement,
  config: Config | Misconfigured,
  start: () => void,
  onImage: (failed?: string) => void,
): Machine & { readonly problem?: string; dispose(): void } {
  let state: State = 'idle'
  // What is wrong with the markup or options, from the start or once the service's answer shows
  // it (an image kind it does not offer). Trying again cannot mend it: nothing starts any more.
  let problem: string | undefined
  let view: View | undefined
  let slow: ReturnType<typeof setTimeout> | undefined
  const m = {
    el,
    // Read by runs only, which start only without a problem: then the configuration is usable.
    config: config as Config,
    get state() {
      return state
    },
    get problem() {
      return problem
    },
    transition(to: State, shown?: Shown) {
      // A code is shown as soon as it comes; "Loading…" waits until it is LOADING_SHOWN_AFTER
      // late. Meanwhile a first view says nothing, its live region in place, empty, so that
      // screen readers announce that code (a region that arrives with its text in it is found,
      // not heard; the view says it in the task after the frame that paints it); a view that
      // shows a code keeps it, so that replacing one neither flashes "Loading…" nor says "Scan
      // with the app" again. After a button or a refusal, at once.
      const wait = to == 'loading' && (!view || state == 'ready' || state == 'reconnecting')
      const show = () => view!.show(to, shown)
      state = move(state, to)
      clearTimeout(slow)
      if (!view) (view = createView(el, readTexts(config, el), start, onImage)).show(to, { message: '' })
      if (wait) slow = setTimeout(show, LOADING_SHOWN_AFTER)
      else show()
    },
    report(reported: ServiceAuthFailure, retrying?: boolean) {
      if (reported.message) console.error('service-auth: ' + reported.message)
      emit(el, 'error', reported.detail(retrying))
    },
    fail(reported: ServiceAuthFailure, retrying?: Shown) {
      // The markup is at fault, from the start or as the service's answer shows: its message
      // names the attribute ("data-service-key is missing or invalid").
      if (reported.reason == 'config') problem = reported.message
      // No button for a problem in the markup: trying again cannot fix it. Shown, then said, so
      // that the page's listeners see it, and what they do (stop, destroy) comes last.
      m.transition(retrying ? 'reconnecting' : 'error', retrying || { button: !problem })
      m.report(reported, !!retrying)
    },
    dispose() {
      clearTimeout(slow)
      view?.dispose()
    },
  }
  return m
}
