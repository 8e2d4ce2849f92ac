import { createChallenge, pollStatus, type Challenge } from './api.js'
import { backoff } from './backoff.js'
import { readConfig, toAppLink, type Options } from './config.js'
import { confirm } from './hand-over.js'
import { listenForCallbacks } from './callbacks.js'
import { emit } from './events.js'
import { failure, isFailure, type Failure } from './http.js'
import { nextTask, sleep } from './timing.js'
import { createView, type Shown } from './view.js'

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

/**
 * The per-element state machine: loading > ready > signing > (navigation), with expiry,
 * reconnecting and errors on the way. When an app cancels the navigation, the widget says
 * "signed in" (state `signed`) until the app routes away or destroys it.
 */
export function createSession(el: HTMLElement, options: Options | undefined, onDestroy: () => void): Handle {
  const config = readConfig(el, options)
  const life = new AbortController()
  listenForCallbacks(el, config.callbacks, life.signal)
  // The latest run of the loop, if it ever started; aborted once it is over, however it ended.
  let run: AbortController | undefined
  // The epoch: long enough ago that the first poll is not held back (sleep takes a negative wait as none).
  let lastPoll = 0
  // When the code on screen was created. The next code's first poll waits for that plus the floor,
  // not for the floor of the last poll: a code lives minutes, so a refreshed code is polled at
  // once, while codes that a service kills at once are replaced at most twice a second, not in a
  // tight loop.
  let lastCreated = 0

  const start = () => {
    if ((run && !run.signal.aborted) || config.problem || life.signal.aborted) return
    loop((run = new AbortController()))
  }
  const halt = () => run?.abort()
  // Its button always starts afresh.
  const view = createView(el, config.wording, config.locale, start)
  /** Reports a failure; with `shown` the widget is retrying, without it, it waits for the person. */
  const fail = (reported: Failure, shown?: Shown) => {
    // The markup is at fault: the message names the attribute ("data-service-key is missing or
    // invalid"), so no prefix is needed.
    if (reported.reason == 'config') console.error(config.problem)
    // The service's own reason, which otherwise only the network tab shows; never the token.
    if (reported.reason == 'rejected') {
      console.error(
        `service-auth: the service refused to create a sign-in code (${reported.status}): ${reported.explanation || 'no reason given'} Check data-service-key, and data-service-api.`,
      )
    }
    // retryAfter only when the widget will retry by itself.
    const { reason, status, retryAfter } = reported
    emit(el, 'error', shown ? { reason, status, retryAfter } : { reason, status })
    // No button for a problem in the markup: trying again cannot fix it.
    view.show(shown ? 'reconnecting' : 'error', shown || { button: !config.problem })
  }

  // The back/forward cache restores the page with its old challenge, which the sign-in that
  // led away from it may have consumed: never resume it. The run stops as the page goes into the
  // cache (nothing in flight keeps it out), and a fresh one starts when it comes back.
  addEventListener('pagehide', (event) => event.persisted && halt(), life)
  addEventListener('pageshow', (event) => event.persisted && run && start(), life)

  /** Runs until signed in, refused or aborted; `current` is aborted once it is over, however it ended. */
  async function loop(current: AbortController): Promise<void> {
    const { signal } = current
    let refreshingSince = Date.now()
    let failures = 0
    // The challenge on screen, with what the view shows of it.
    let challenge: (Challenge & Shown) | undefined
    // That the last sign-in failed, said in place of "scan with the app" beside the next code (only).
    let notice: 'failed' | undefined

    try {
      // Not in the task that started it: a widget destroyed in that same task sends nothing.
      view.show('loading')
      await nextTask()
      if (signal.aborted) return
      for (;;) {
        try {
          if (!challenge) {
            view.show('loading', { message: notice })
            const created = await createChallenge(config, signal)
            // On touch devices the code is also a link that opens the app (a phone cannot scan its own screen).
            challenge = { ...created, message: notice, link: config.appUrl && toAppLink(config.appUrl, created.id) }
            lastPoll = lastCreated
            lastCreated = Date.now()
            notice = undefined
            emit(el, 'ready', { challengeId: challenge.id, expiresAt: challenge.expiresAt })
          } else {
            await sleep(lastPoll + POLL_FLOOR - Date.now(), signal)
            if (document.hidden) {
              // Hidden tabs make no requests (checked after the wait, which the tab may have
              // spent going away). Someone coming back is attending again, so refreshing the
              // code for them restarts the unattended clock. (Aborting drops the listener and leaves
              // this promise pending for good, which is fine: nothing else refers to the aborted run.)
              await new Promise((visible) => document.addEventListener('visibilitychange', visible, { once: true, signal }))
              refreshingSince = Date.now()
              continue
            }
            lastPoll = Date.now()
            // Past the code's deadline: handled below exactly like the service's own 410.
            if (lastPoll > challenge.deadline) throw { reason: 'expired', status: 410 }
            const token = await pollStatus(challenge.statusUrl, challenge.deadline, signal)
            if (token) {
              // From here on the challenge counts as consumed: it is never polled again, whatever follows.
              emit(el, 'signed', { challengeId: challenge.id })
              challenge = undefined
              view.show('signing')
              // Never retried: the token is single-use, and a refusal is an answer.
              let next
              try {
                next = await confirm(config, token, signal)
              } catch (error) {
                if (!isFailure(error)) throw error
                emit(el, 'error', error)
                notice = 'failed'
                // Backed off as any failure is, and the count is cleared only by a poll that finds
                // the next code unsigned: a service handing out tokens nobody signed cannot make
                // the page call the controller, with this origin's cookies, twice a second. Nor
                // does a refusal count as attention: such a loop ends with the unattended limit.
                await sleep(backoff(0, failures++), signal)
                continue
              }
              // Where the controller said (null: reload), unless a listener cancelled the event: then
              // the page's own script goes on from here, and the widget says the person is signed in.
              // `path` is the same place for a single-page app's router, when it is on this origin.
              const path = next && next.origin == location.origin ? next.pathname + next.search + next.hash : undefined
              if (!emit(el, 'success', { location: next?.href, path }, true)) return view.show('signed')
              if (next) location.assign(next.href)
              else location.reload()
              return
            }
            // The service answers again: a backoff starts afresh.
            failures = 0
          }
          view.show('ready', challenge)
        } catch (error: any) {
          if (!isFailure(error)) throw error
          if (error.reason == 'rejected' || error.reason == 'config') return fail(error)
          if (error.status == 404 || error.status == 410) {
            if (error.status == 410) emit(el, 'expired', { challengeId: challenge!.id })
            challenge = undefined
            if (Date.now() - refreshingSince > UNATTENDED) return view.show('expired', { button: true })
          } else {
            fail(error, challenge || {})
            await sleep(backoff(error.retryAfter, failures++), signal)
          }
        }
      }
    } catch {
      // An abort ends the run quietly. Anything else here is a bug of ours: say so visibly rather
      // than freeze.
      signal.aborted || fail(failure('internal'))
    } finally {
      current.abort()
    }
  }

  if (config.problem) fail(failure('config'))
  else if (config.autoStart) start()
  else view.show('idle', { button: true })

  return {
    start,
    stop() {
      halt()
      if (!config.problem) view.show('idle', { button: true })
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
