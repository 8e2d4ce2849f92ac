// The widget's states, named once: what the view shows (the root's `data-state`), what a handle's
// `state` says, and the moves between them that widget.ts makes. Apart from both, so that the view
// and the widget each import it and neither imports the other.

/** Every state a widget can be in, in the order of a sign-in's life. */
export const STATES = ['idle', 'loading', 'ready', 'reconnecting', 'signing', 'signed', 'expired', 'error'] as const

/** What a widget shows: one of STATES. */
export type State = (typeof STATES)[number]

/**
 * The states each state may be entered from: the diagram at the top of widget.ts, as data. A state
 * not listed may be entered from any: `idle` (stop()), `loading` (a run starts from whatever the
 * last one left, a back/forward cache restore included) and `error` (a failure, or a bug). A move
 * to the same state shows it again: a code that was reconnecting is ready again.
 */
const ENTERED_FROM: Partial<Record<State, readonly State[]>> = {
  ready: ['loading', 'ready', 'reconnecting'],
  reconnecting: ['loading', 'ready', 'reconnecting'],
  signing: ['ready', 'reconnecting'],
  signed: ['signing'],
  expired: ['ready', 'reconnecting'],
}

/** `to`, if the diagram has a move there from `from`; a move it does not have is a bug of ours, thrown as one. */
export const move = (from: State, to: State): State => {
  if (ENTERED_FROM[to]?.includes(from) == false) throw Error(`service-auth: no move from ${from} to ${to}`)
  return to
}
