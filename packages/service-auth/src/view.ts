// The view: what the person sees of a widget's state. It knows nothing of the network.
import type { Pack, Texts } from './i18n.js'
import type { State } from './state.js'

export interface Shown {
  /** The QR image's URL; without it the frame stays an empty placeholder of the same size. */
  imageSrc?: string
  /** When the shown code expires (epoch ms); drives the countdown. */
  deadline?: number
  /** Shows the button ("Try again" in the error state, else "Show a new code"). */
  button?: boolean
  /** Makes the code a link that opens the phone app (touch devices only). */
  link?: string
  /** Another text (by its key) in place of the state's usual status text, e.g. `failed` to say why; '' for none. */
  message?: keyof Texts | ''
}

export interface View {
  show(state: State, shown?: Shown): void
  /** Removes what the view added. */
  dispose(): void
}

/**
 * What the user sees. Built with DOM calls only, never innerHTML, so it is safe under Trusted Types.
 * Its button, when shown, runs `action`; `onImage` hears of each QR image on show: nothing when it
 * loaded, its source when it did not.
 */
export function createView(host: HTMLElement, texts: Pack, action: () => void, onImage: (failed?: string) => void): View {
  const add = <K extends keyof HTMLElementTagNameMap>(tag: K, parent: Element = root): HTMLElementTagNameMap[K] =>
    parent.appendChild(document.createElement(tag))
  // Appended, not replacing: whatever the integrator put in the element is theirs to keep.
  const root: HTMLDivElement = add('div', host)
  // A link only while it has an href: otherwise an <a> is neither focusable nor announced as one.
  const frame = add('a')
  const img = add('img', frame)
  const status = add('p')
  const countdown = add('p')
  const time = countdown.appendChild(new Text())
  const button = add('button')
  let ticker: ReturnType<typeof setInterval> | undefined
  let painting = 0

  root.className = 'sa'
  // The pack's language, so that screen readers pronounce its texts right, and its direction:
  // right to left mirrors the layout; English on a right-to-left page stays left to right.
  root.lang = texts.lang
  root.dir = texts.dir!
  // Focus moves here when the focused link or button goes away, rather than falling back to the page's top.
  root.tabIndex = -1
  img.alt = texts.alt
  img.onload = () => onImage()
  img.onerror = () => {
    // Not for an image taken away meanwhile: its failure says nothing of what is shown now.
    if (!img.hidden) onImage(img.src)
  }
  // The role attribute, through its ARIA reflection (in every browser the README lists).
  status.role = 'status'
  button.type = 'button'
  // Not while hidden: a script may still click it.
  button.onclick = () => {
    root.focus()
    if (!button.hidden) action()
  }

  return {
    show(state, { imageSrc, deadline, button: offered, message, link } = {}) {
      clearInterval(ticker)
      cancelAnimationFrame(painting)
      // A focused link that goes (a code replaced or signed) would drop focus to the page's top.
      if (!link && document.activeElement == frame) root.focus()
      // A first code while the view has said nothing yet: painted alone, and its words in the
      // task after that frame. On a first visit they are often the page's first text, whose
      // first layout held the code's paint back: 1.3 to 2.7 ms from the answer to the paint in
      // A/B runs (BENCHMARKS.md). Any later show says them at once, or drops them.
      const first = imageSrc && img.hidden && !status.textContent
      root.dataset.state = state
      if (!imageSrc) img.removeAttribute('src')
      // The same code is not set again, which would reload it. (It is always absolute here.)
      else if (img.src != imageSrc) img.src = imageSrc
      img.hidden = !imageSrc
      if (link) frame.href = link
      else frame.removeAttribute('href')
      const words = () => {
        // Unchanged text is left alone, so the live region does not announce it again. A code that
        // is a link says to tap it rather than scan it. The idle state has no text of its own, nor
        // has '' (a view that says nothing yet): an empty line.
        const key = message ?? (link && state == 'ready' ? 'tap' : state)
        const text = texts[key as keyof Texts] || ''
        if (status.textContent != text) status.textContent = text
        button.textContent = state == 'error' ? texts.retry : texts.newCode
        button.hidden = !offered
        countdown.hidden = !deadline
        // Only this text node changes each second. It is outside the live region, so screen
        // readers are not read the time every second, and page observers see no new nodes.
        const tick = () => {
          // In the digits the language writes, which a pack gives when they are not 0-9 (Arabic's ٠١٢).
          time.data = texts.left + clock(deadline! - Date.now()).replace(/\d/g, (digit) => texts.digits?.[+digit] || digit)
        }
        // Not once destroyed: an event listener may destroy the widget just before this runs.
        if (deadline && root.isConnected) {
          tick()
          ticker = setInterval(tick, 1000)
        }
      }
      // (clearInterval clears a timeout too: they share one list of timers.)
      if (first) painting = requestAnimationFrame(() => (ticker = setTimeout(words)))
      else words()
    },
    dispose() {
      clearInterval(ticker)
      cancelAnimationFrame(painting)
      root.remove()
    },
  }
}

/** A countdown's text for `ms` left, rounded up to the second: mm:ss, or h:mm:ss from an hour on. */
export const clock = (ms: number): string => {
  const seconds = Math.ceil(Math.max(0, ms) / 1000)
  const hours = Math.floor(seconds / 3600)
  // Minutes and seconds from a date's time of day, within the hour: valid however far off the deadline.
  return (hours ? hours + ':' : '') + new Date((seconds % 3600) * 1000).toJSON().slice(14, 19)
}
