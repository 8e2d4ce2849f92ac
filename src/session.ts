import { createChallenge, pollStatus, type Challenge } from './api'
import { backoff } from './backoff'
import { readConfig, type Options } from './config'
import { confirm, follow } from './controller'
import { emit } from './events'
import { failure, isFailure, type Failure } from './http'
import { sleep, untilVisible } from './timing'
import { createView, type Shown } from './view'

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
 * reconnecting and errors on the way. When an app cancels the navigation, "signing in" stays
 * until it routes away or destroys the widget.
 */
export function createSession(el: HTMLElement, options: Options | undefined, onDestroy: () => void): Handle {
  const config = readConfig(el, options)
  const { texts, problem } = config
  const view = createView(el, texts, config.lang)
  const life = new AbortController()
  let run: AbortController | undefined
  let started: boolean | undefined
  let lastPoll = -POLL_FLOOR

  const start = () => {
    if (run || problem || life.signal.aborted) return
    const current = (run = new AbortController())
    started = true
    loop(current.signal)
      // Only a bug of ours gets here: say so visibly rather than freeze.
      .catch(() => current.signal.aborted || fail(failure('internal')))
      .finally(() => run == current && (run = undefined))
  }
  const halt = () => (run?.abort(), (run = undefined))
  /** Reports a failure; with `shown` the widget is retrying, without it, it waits for the person. */
  const fail = (reported: Failure, shown?: Shown) => {
    emit(el, 'error', reported)
    view.show(shown ? 'reconnecting' : 'error', shown || { action: start })
  }

  const handle: Handle = {
    start,
    stop() {
      halt()
      if (!problem) view.show('idle', { action: start })
    },
    destroy() {
      if (life.signal.aborted) return
      halt()
      life.abort()
      view.destroy()
      onDestroy()
    },
  }

  if (problem) {
    // The message names the attribute ("data-service-key is missing or invalid"): no prefix needed.
    console.error(problem)
    // No button: trying again cannot fix the markup.
    emit(el, 'error', failure('config'))
    view.show('error')
    return handle
  }

  // The back/forward cache restores the page with its old challenge, which the sign-in that
  // led away from it may have consumed: never resume it, start afresh.
  addEventListener('pagehide', (event) => event.persisted && halt(), life)
  addEventListener('pageshow', (event) => event.persisted && started && (halt(), start()), life)

  async function loop(signal: AbortSignal): Promise<void> {
    let refreshingSince = Date.now()
    let failures = 0
    let challenge: Challenge | undefined
    let ids!: { challengeId: string }
    let shown!: Shown & { deadline: number }
    // That the last sign-in failed, said in place of "scan with the app" beside the next code (only).
    let notice: string | undefined

    for (;;) {
      try {
        if (!challenge) {
          view.show('loading', { message: notice })
          challenge = await createChallenge(config, signal)
          ids = { challengeId: challenge.id }
          shown = { src: challenge.image, deadline: Date.now() + challenge.lifetime, message: notice }
          notice = undefined
          emit(el, 'ready', { ...ids, expiresAt: challenge.expiresAt })
        } else {
          await sleep(lastPoll + POLL_FLOOR - Date.now(), signal)
          if (document.hidden) {
            // Hidden tabs make no requests (checked after the wait, which the tab may have
            // spent going away). Someone coming back is attending again, so refreshing the
            // code for them restarts the unattended clock.
            await untilVisible(signal)
            refreshingSince = Date.now()
            continue
          }
          lastPoll = Date.now()
          // Past the code's deadline: handled below exactly like the service's own 410.
          if (lastPoll > shown.deadline) throw { reason: 'expired', status: 410 }
          const token = await pollStatus(challenge.pollingUrl, signal)
          if (token) {
            // From here on the challenge counts as consumed: it is never polled again, whatever follows.
            emit(el, 'signed', ids)
            challenge = undefined
            view.show('signing')
            // Never retried: the token is single-use, and a refusal is an answer.
            const next = await confirm(config, token, signal).catch((e) => (isFailure(e) ? e : Promise.reject(e)))
            if (!isFailure(next)) {
              if (emit(el, 'success', { location: next?.href }, true)) follow(next)
              return
            }
            emit(el, 'error', next)
            notice = texts.error
            refreshingSince = Date.now()
            continue
          }
        }
        failures = 0
        view.show('ready', shown)
      } catch (error: any) {
        if (!isFailure(error)) throw error
        const { reason, status } = error
        if (reason == 'rejected') return fail(error)
        if (status == 404 || status == 410) {
          if (status == 410) emit(el, 'expired', ids)
          challenge = undefined
          if (Date.now() - refreshingSince > UNATTENDED) return view.show('expired', { action: start })
        } else {
          fail(error, challenge ? shown : {})
          await sleep(backoff(failures++, error.retryAfter), signal)
        }
      }
    }
  }

  if (config.autoStart) start()
  else view.show('idle', { action: start })
  return handle
}
