import { afterEach, describe, expect, it } from 'vitest'
import { emit } from '../src/events.js'

afterEach(() => document.body.replaceChildren())

describe('emit', () => {
  it('dispatches a bubbling service-auth:<name> CustomEvent with the detail', () => {
    const el = document.body.appendChild(document.createElement('div'))
    const seen: Event[] = []
    document.addEventListener('service-auth:ready', (event) => seen.push(event), { once: true })
    expect(emit(el, 'ready', { challengeId: 'c1', expiresAt: '2030-01-01T00:02:00Z' })).toBe(true)
    expect(seen).toHaveLength(1)
    const [event] = seen as CustomEvent[]
    expect(event.target).toBe(el)
    expect(event.bubbles).toBe(true)
    expect(event.detail).toEqual({ challengeId: 'c1', expiresAt: '2030-01-01T00:02:00Z' })
  })

  it('cannot be cancelled unless asked', () => {
    const el = document.createElement('div')
    el.addEventListener('service-auth:error', (event) => event.preventDefault())
    expect(emit(el, 'error', { reason: 'network', status: 0 })).toBe(true)
  })

  it('tells when a listener cancelled a cancelable event', () => {
    const el = document.createElement('div')
    let cancelable: boolean | undefined
    el.addEventListener('service-auth:success', (event) => {
      cancelable = event.cancelable
      event.preventDefault()
    })
    expect(emit(el, 'success', { location: 'http://localhost:3000/' }, true)).toBe(false)
    expect(cancelable).toBe(true)
  })
})
