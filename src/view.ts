import type { Texts } from './i18n'
import { adoptStyles } from './style'

export type State = 'idle' | 'loading' | 'ready' | 'reconnecting' | 'signing' | 'expired' | 'error'

export interface Shown {
  /** The QR image; without it the frame stays an empty placeholder of the same size. */
  src?: string
  /** When the shown code expires (epoch ms); drives the countdown. */
  deadline?: number
  /** Shows the "Show a new code" button, which runs this. */
  action?: () => void
  /** Replaces the state's usual status text, e.g. to say why the last sign-in failed. */
  message?: string
}

export interface View {
  show(state: State, shown?: Shown): void
  /** Removes what the view added. */
  destroy(): void
}

/** What the user sees. Built with DOM calls only, never innerHTML, so it is safe under Trusted Types. */
export function createView(host: HTMLElement, texts: Texts, lang: string): View {
  adoptStyles()
  const root = document.createElement('div')
  const add = <K extends keyof HTMLElementTagNameMap>(tag: K, parent: Element = root): HTMLElementTagNameMap[K] =>
    parent.appendChild(document.createElement(tag))
  const img = add('img', add('div'))
  const status = add('p')
  const time = add('p').appendChild(new Text())
  const button = add('button')
  let action: (() => void) | undefined
  let ticker: ReturnType<typeof setInterval> | undefined

  root.className = 'sa'
  root.lang = lang
  img.alt = texts.alt
  status.setAttribute('role', 'status')
  button.type = 'button'
  button.textContent = texts.newCode
  button.onclick = () => action?.()
  // Appended, not replacing: whatever the integrator put in the element is theirs to keep.
  host.append(root)

  return {
    show(state, { src, deadline, action: run, message } = {}) {
      clearInterval(ticker)
      root.dataset.state = state
      if (!src) img.removeAttribute('src')
      // The same code is not set again, which would reload it. (src is always absolute here.)
      else if (img.src != src) img.src = src
      img.hidden = !src
      // Unchanged text is left alone, so the live region does not announce it again.
      const text = message || texts[state as keyof Texts] || ''
      if (status.textContent != text) status.textContent = text
      action = run
      button.hidden = !run
      time.parentElement!.hidden = !deadline
      // Only this text node changes each second. It is outside the live region, so screen
      // readers are not read the time every second, and page observers see no new nodes.
      const tick = () => (time.data = texts.left + new Date(Math.max(0, deadline! - Date.now()) + 999).toISOString().slice(14, 19))
      // Not once destroyed: an event listener may destroy the widget just before this runs.
      if (deadline && root.isConnected) {
        tick()
        ticker = setInterval(tick, 1000)
      }
    },
    destroy() {
      clearInterval(ticker)
      root.remove()
    },
  }
}
