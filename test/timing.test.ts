import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { sleep, untilVisible } from '../src/timing'

/** Tracks whether a promise has settled, without awaiting it. */
function track(promise: Promise<unknown>) {
  const state = { settled: false, value: undefined as unknown, error: undefined as unknown }
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error) => Object.assign(state, { settled: true, error }),
  )
  return state
}

/** The abort listeners currently registered on `signal` (added and not yet removed). */
function abortListeners(signal: AbortSignal) {
  const live = new Set<unknown>()
  const add = signal.addEventListener.bind(signal)
  const remove = signal.removeEventListener.bind(signal)
  vi.spyOn(signal, 'addEventListener').mockImplementation((type: string, listener: any, options?: any) => {
    if (type == 'abort') live.add(listener)
    add(type, listener, options)
  })
  vi.spyOn(signal, 'removeEventListener').mockImplementation((type: string, listener: any, options?: any) => {
    if (type == 'abort') live.delete(listener)
    remove(type, listener, options)
  })
  return live
}

beforeEach(() => {
  vi.useFakeTimers()
})

afterEach(() => {
  vi.useRealTimers()
})

describe('sleep', () => {
  it('resolves after ms, not before', async () => {
    const state = track(sleep(1000, new AbortController().signal))
    await vi.advanceTimersByTimeAsync(999)
    expect(state.settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(state).toMatchObject({ settled: true, error: undefined })
  })

  it('resolves at once for zero or negative ms', async () => {
    const state = track(sleep(-5000, new AbortController().signal))
    await vi.advanceTimersByTimeAsync(0)
    expect(state).toMatchObject({ settled: true, error: undefined })
  })

  it('rejects with the abort reason as soon as the signal aborts, and clears its timer', async () => {
    const controller = new AbortController()
    const state = track(sleep(60_000, controller.signal))
    await vi.advanceTimersByTimeAsync(10)
    const reason = new Error('stopped')
    controller.abort(reason)
    await vi.advanceTimersByTimeAsync(0)
    expect(state).toMatchObject({ settled: true, error: reason })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController()
    controller.abort()
    const state = track(sleep(30_000, controller.signal))
    await vi.advanceTimersByTimeAsync(0)
    expect(state).toMatchObject({ settled: true, error: controller.signal.reason })
  })

  it('removes its abort listener when it resolves, so a long-lived signal collects none', async () => {
    const controller = new AbortController()
    const live = abortListeners(controller.signal)
    for (let i = 0; i < 5; i++) {
      const pending = sleep(100, controller.signal)
      expect(live.size).toBe(1)
      await vi.advanceTimersByTimeAsync(100)
      await pending
    }
    expect(live.size).toBe(0)
  })

  it('removes its abort listener when it rejects', async () => {
    const controller = new AbortController()
    const live = abortListeners(controller.signal)
    const pending = sleep(100, controller.signal).catch(() => {})
    controller.abort()
    await pending
    expect(live.size).toBe(0)
  })
})

describe('untilVisible', () => {
  it('resolves on the next visibilitychange, not before', async () => {
    const state = track(untilVisible(new AbortController().signal))
    await vi.advanceTimersByTimeAsync(3_600_000)
    expect(state.settled).toBe(false)
    document.dispatchEvent(new Event('visibilitychange'))
    await vi.advanceTimersByTimeAsync(0)
    expect(state.settled).toBe(true)
    expect(state.error).toBeUndefined()
  })

  it('keeps no timer while it waits', () => {
    untilVisible(new AbortController().signal)
    expect(vi.getTimerCount()).toBe(0)
  })

  it('stops listening once aborted', async () => {
    const controller = new AbortController()
    const state = track(untilVisible(controller.signal))
    controller.abort()
    document.dispatchEvent(new Event('visibilitychange'))
    await vi.advanceTimersByTimeAsync(0)
    expect(state.settled).toBe(false)
  })

  it('listens only once', async () => {
    const removed = vi.spyOn(document, 'removeEventListener')
    const added = vi.spyOn(document, 'addEventListener')
    await Promise.all([untilVisible(new AbortController().signal), document.dispatchEvent(new Event('visibilitychange'))])
    expect(added).toHaveBeenCalledOnce()
    const [, listener, options] = added.mock.calls[0]
    // Either removed explicitly, or registered with `once` so the browser removes it.
    expect(removed.mock.calls.some((call) => call[1] == listener) || (options as AddEventListenerOptions)?.once).toBeTruthy()
  })
})
