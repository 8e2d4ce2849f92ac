import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { nextTask, sleep } from '../src/timing.js'

/** Tracks whether a promise has settled, without awaiting it. */
function track(promise: Promise<unknown>) {
  const state = { settled: false, value: undefined as unknown, error: undefined as unknown }
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error) => Object.assign(state, { settled: true, error }),
  )
  return state
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

  it('never hands the browser a negative delay, which it would wrap around to days below -2^31 ms', async () => {
    const setTimer = vi.spyOn(globalThis, 'setTimeout')
    const state = track(sleep(-3e9, new AbortController().signal))
    expect(setTimer).toHaveBeenCalledWith(expect.any(Function), 0)
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

  it('after many sleeps and an abort, nothing of the settled sleeps fires: only the pending one rejects', async () => {
    const controller = new AbortController()
    for (let i = 0; i < 1000; i++) {
      const pending = sleep(100, controller.signal)
      await vi.advanceTimersByTimeAsync(100)
      await pending
    }
    const last = track(sleep(60_000, controller.signal))
    const cleared = vi.spyOn(globalThis, 'clearTimeout')
    controller.abort()
    await vi.advanceTimersByTimeAsync(0)
    // Only the pending sleep acted on the abort: it cleared its own timer, once, and rejected.
    expect(cleared).toHaveBeenCalledOnce()
    expect(last).toMatchObject({ settled: true, error: controller.signal.reason })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('leaves nothing behind that acts when the signal aborts after it resolved', async () => {
    const controller = new AbortController()
    const pending = sleep(100, controller.signal)
    await vi.advanceTimersByTimeAsync(100)
    await pending
    const later = track(sleep(60_000, new AbortController().signal))
    controller.abort()
    await vi.advanceTimersByTimeAsync(0)
    expect(later.settled).toBe(false)
    expect(vi.getTimerCount()).toBe(1)
  })
})

describe('nextTask', () => {
  /** Every microtask of this task, and those they queue, run. */
  const microtasks = async () => {
    for (let i = 0; i < 20; i++) await Promise.resolve()
  }

  /** `promise` is still pending once this task's microtasks have run, and settles in a later task. */
  const settlesInALaterTask = async (promise: Promise<unknown>) => {
    const state = track(promise)
    await microtasks()
    expect(state.settled).toBe(false)
    // The fake clock does not own the message: real tasks alone bring it.
    await vi.waitFor(() => expect(state.settled).toBe(true), { timeout: 1000 })
  }

  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('resolves in a later task, with no timer a fake clock could hold back', async () => {
    const task = nextTask()
    expect(vi.getTimerCount()).toBe(0)
    await settlesInALaterTask(task)
  })

  it("resolves in a user-blocking task of the page's scheduler where there is one, which a loading page runs before its ordinary tasks", async () => {
    const postTask = vi.fn((_callback: () => void, _options: { priority: string }) => Promise.resolve())
    vi.stubGlobal('scheduler', { postTask })
    const state = track(nextTask())
    expect(postTask).toHaveBeenCalledWith(expect.any(Function), { priority: 'user-blocking' })
    await microtasks()
    expect(state.settled).toBe(false)
    postTask.mock.calls[0]![0]()
    await microtasks()
    expect(state.settled).toBe(true)
  })

  it('resolves in a later task all the same when the scheduler refuses the task', async () => {
    vi.stubGlobal('scheduler', { postTask: () => Promise.reject(new DOMException('detached', 'NotSupportedError')) })
    await settlesInALaterTask(nextTask())
  })

  it("ignores a page's own global named scheduler, which has no postTask", async () => {
    vi.stubGlobal('scheduler', { init() {} })
    await settlesInALaterTask(nextTask())
  })
})
