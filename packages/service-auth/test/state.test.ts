// The states, named once, and the moves between them: what transition() lets through and what it
// takes for a bug of ours.
import { describe, expect, it } from 'vitest'
import { move, STATES, type State } from '../src/state.js'

/** The moves the diagram at the top of widget.ts has, besides idle, loading and error from anywhere. */
const MOVES: Record<string, State[]> = {
  ready: ['loading', 'ready', 'reconnecting'],
  reconnecting: ['loading', 'ready', 'reconnecting'],
  signing: ['ready', 'reconnecting'],
  signed: ['signing'],
  expired: ['ready', 'reconnecting'],
}

describe('the states', () => {
  it('are named once, in the order of a sign-in', () => {
    expect(STATES).toEqual(['idle', 'loading', 'ready', 'reconnecting', 'signing', 'signed', 'expired', 'error'])
  })

  it.each(STATES)('may be entered from the states the diagram says, and no other: %s', (to) => {
    for (const from of STATES) {
      const legal = ['idle', 'loading', 'error'].includes(to) || MOVES[to]!.includes(from)
      if (legal) expect(move(from, to), `${from} → ${to}`).toBe(to)
      else expect(() => move(from, to), `${from} → ${to}`).toThrow(new Error(`service-auth: no move from ${from} to ${to}`))
    }
  })
})
