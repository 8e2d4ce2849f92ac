import { readConfig, type Config, type Options } from '../src/config.js'
import { ServiceAuthFailure } from '../src/failure.js'
import { EVENT_NAMES } from '../src/events.js'
import type { ChallengeJson } from '../src/wire/challenge.js'
import { nextTask } from '../src/timing.js'
import { LOADING_SHOWN_AFTER } from '../src/widget.js'
// Shared test doubles: a scripted fake of the service and the integrator's controller behind
// a stubbed fetch, a page fixture, and readers for what a person sees in the widget.
import { expect, vi } from 'vitest'

/** The service URL vitest.config.ts bakes in as __API__. */
export const API = 'https://api.test.example'
/** happy-dom's default page origin. */
export const ORIGIN = 'http://localhost:3000'
export const CREATE_URL = API + '/v1/entity/challenges'
export const CONTROLLER_URL = ORIGIN + '/auth/controller'
/** A JWT-shaped token (header.payload.signature). */
export const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJlLW9mLXRoZS1zZXJ2aWNl'
/** Base64 of the PNG signature, standing in for the QR image data. */
export const PNG_BASE64 = 'iVBORw0KGgo='

/** With a polling secret, as the service's pollingUrl has one: the embed must poll the URL as given. */
export const pollingUrlOf = (id: string) => `${CREATE_URL}/${id}/status?secret=only-for-${id}`
export const imageUrlOf = (id: string) => `${API}/v1/entity/challenges/${id}/images/qrcode-standard.png`

/** A challenge as the service returns it, created now (by the fake clock) and living `lifetime` ms. */
export function challengeJson(id: string, lifetime = 120_000, extra: Record<string, unknown> = {}): ChallengeJson {
  const now = Date.now()
  const challenge: ChallengeJson = {
    id,
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + lifetime).toISOString(),
    authType: 'web',
    authImages: { 'qrcode-standard': imageUrlOf(id), 'qrcode-large': imageUrlOf(id).replace('standard', 'large') },
    authImagesData: { 'qrcode-standard': PNG_BASE64 + id, 'qrcode-large': 'TGFyZ2U=' },
    pollingUrl: pollingUrlOf(id),
    authTokenUrl: `${CREATE_URL}/${id}/token?secret=only-for-${id}`,
    socketsUrl: `wss://api.test.example/v1/entity/challenges/${id}/socket`,
  }
  // Fields replaced, or (undefined) taken away, as a broken or hostile service would.
  return { ...challenge, ...extra }
}

/** The `src` a challenge made by `challengeJson(id)` is shown with (inline data, the default). */
export const dataSrcOf = (id: string) => 'data:image/png;base64,' + PNG_BASE64 + id

export const noContent = () => new Response(null, { status: 204 })
/** The service's answer once the phone has signed. */
export const tokenResponse = () => Response.json({ token: TOKEN })
export const status = (code: number, headers?: Record<string, string>) => new Response(code == 204 ? null : '{"message":"no"}', { status: code, headers })

/** A response the test hands out whenever it likes: a held long poll. */
export function held<T = Response>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

/** A response the service holds for `ms` (of fake time) before answering, like a long poll. */
export const after = (ms: number, reply: () => Response) => new Promise<Response>((resolve) => setTimeout(() => resolve(reply()), ms))

export type Reply = Response | Promise<Response> | Error
export interface Call {
  url: string
  init: RequestInit
  /** Fake-clock time when fetch was called. */
  at: number
}

/**
 * A fake service and controller behind a stubbed global fetch. Each route has a replaceable
 * responder; every call is recorded. Like a real fetch, a call rejects with the signal's
 * reason when its signal aborts, even while a responder holds it.
 */
export class FakeService {
  calls: Call[] = []
  created = 0
  /** Responds to `POST /v1/entity/challenges`; `n` counts from 1. */
  create: (n: number) => Reply = (n) => Response.json(challengeJson('c' + n), { status: 201 })
  /** Responds to a challenge's polling URL. */
  poll: (id: string) => Reply = () => noContent()
  /** Responds to the integrator's controller. */
  controller: (call: Call) => Reply = () => Response.json({ location: '/welcome' })

  readonly fetch = vi.fn((input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = String(input)
    const call = { url, init, at: Date.now() }
    this.calls.push(call)
    const signal = init.signal
    if (signal?.aborted) return Promise.reject(signal.reason)
    const reply = this.route(call)
    return new Promise((resolve, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason))
      if (reply instanceof Error) reject(reply)
      else Promise.resolve(reply).then(resolve, reject)
    })
  })

  constructor() {
    vi.stubGlobal('fetch', this.fetch)
  }

  private route(call: Call): Reply {
    if (call.url == CREATE_URL) return this.create(++this.created)
    const poll = /^https:\/\/api\.test\.example\/v1\/entity\/challenges\/([^/]+)\/status\?/.exec(call.url)
    if (poll && call.url == pollingUrlOf(poll[1]!)) return this.poll(poll[1])
    if (call.url.startsWith(ORIGIN + '/')) return this.controller(call)
    return new TypeError('Failed to fetch: unexpected URL in test ' + call.url)
  }

  get creates() {
    return this.calls.filter((c) => c.url == CREATE_URL)
  }
  polls(id?: string) {
    return this.calls.filter((c) => c.url.includes('/status?') && (!id || c.url == pollingUrlOf(id)))
  }
  get controllerCalls() {
    return this.calls.filter((c) => c.url.startsWith(ORIGIN + '/'))
  }
}

/** A `[data-service-auth]` element with a valid key and controller, in `parent`. */
export function widget(attrs: Record<string, string> = {}, parent: Element = document.body): HTMLElement {
  const el = document.createElement('div')
  el.setAttribute('data-service-auth', '')
  el.setAttribute('data-service-key', 'pk_test_123')
  el.setAttribute('data-service-auth-url', '/auth/controller')
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value)
  parent.append(el)
  return el
}

/** A usable configuration read from `el`, as the widget hands the network layer; markup that is not usable fails the test. */
export function usableConfig(options: Options = {}, el: HTMLElement = widget()): Config {
  const read = readConfig(el, options)
  if (read.problem !== undefined) throw new Error(read.problem)
  return read
}

/** What a person sees in the widget inside `el`. */
export function seen(el: Element) {
  const root = () => el.querySelector('.sa')
  const visible = (node: Element | null | undefined) => !!node && !node.closest('[hidden]')
  return {
    get mounted() {
      return !!root()
    },
    /** The live status line. */
    get status() {
      return el.querySelector('[role=status]')?.textContent ?? null
    },
    /** The QR image's src, or null while no image is shown. */
    get image() {
      const img = el.querySelector('img')
      return img && visible(img) ? img.getAttribute('src') : null
    },
    get alt() {
      return el.querySelector('img')?.alt ?? null
    },
    /** The button's label, or null while there is no button. */
    get button() {
      const button = el.querySelector('button')
      return button && visible(button) ? button.textContent : null
    },
    click() {
      const button = el.querySelector('button')
      if (!button || !visible(button)) throw new Error('no button to click')
      button.click()
    },
    /** The countdown line, or null while hidden. */
    get countdown() {
      const p = [...el.querySelectorAll('.sa p')].find((node) => node.getAttribute('role') != 'status')
      return p && visible(p) ? p.textContent : null
    },
  }
}

export type Recorded = { type: string; detail: any; cancelable: boolean; target: EventTarget | null }

/** Records every `service-auth:*` event that reaches `target` (bubbling from the widget). */
export function recordEvents(target: EventTarget, signal?: AbortSignal): Recorded[] {
  const events: Recorded[] = []
  for (const type of EVENT_NAMES) {
    target.addEventListener(
      'service-auth:' + type,
      (event) => events.push({ type, detail: (event as CustomEvent).detail, cancelable: event.cancelable, target: event.target }),
      { signal },
    )
  }
  return events
}

export const types = (events: Recorded[]) => events.map((e) => e.type)

/** Lets pending promise callbacks (and MutationObserver records) run without moving the clock. */
export const flush = async () => {
  await vi.advanceTimersByTimeAsync(0)
  // A widget's first request leaves in the task after it starts (timing.ts nextTask), which the
  // fake clock does not hold: let that task run, then what it set off.
  await nextTask()
  await vi.advanceTimersByTimeAsync(0)
}

/**
 * Past the frame that paints a widget's first code: its words (status, countdown) come in the task
 * after it (widget.ts), so that they are not laid out before the code is painted.
 */
export const pastFirstPaint = async () => {
  vi.advanceTimersToNextFrame()
  // A timer set while the fake clock runs a callback is due 1 ms later, not at once.
  await vi.advanceTimersByTimeAsync(1)
}

/** Past the wait before a starting widget that has no code yet says "Loading…" (LOADING_SHOWN_AFTER). */
export const pastLoadingWait = () => vi.advanceTimersByTimeAsync(LOADING_SHOWN_AFTER)

/** Sets document.hidden/visibilityState and tells the page, as a browser does on tab switches. */
export function setHidden(hidden: boolean) {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden })
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (hidden ? 'hidden' : 'visible') })
  document.dispatchEvent(new Event('visibilitychange'))
}

export function resetVisibility() {
  delete (document as any).hidden
  delete (document as any).visibilityState
}

/** A pagehide/pageshow event as the back/forward cache fires them. */
export function pageTransition(type: 'pagehide' | 'pageshow', persisted: boolean) {
  const event = new Event(type)
  Object.defineProperty(event, 'persisted', { value: persisted })
  window.dispatchEvent(event)
}

/** Replaces navigation, which happy-dom would otherwise attempt, with spies. */
export function stubNavigation() {
  return {
    assign: vi.spyOn(window.location, 'assign').mockImplementation(() => {}),
    reload: vi.spyOn(window.location, 'reload').mockImplementation(() => {}),
  }
}

/** The headers of a recorded call, whatever form they were given in. */
export const headersOf = (call: Call) => new Headers(call.init.headers)

/** A responder that gives these replies in turn, then repeats the last one. */
export function sequence(...replies: (() => Reply)[]) {
  let i = 0
  return () => replies[Math.min(i++, replies.length - 1)]()
}

/**
 * Asserts request times (ms) within a few ms of the expected ones: fake timers run a zero
 * delay scheduled during a tick one ms later, so each quick poll may drift by a millisecond.
 */
export function expectTimes(actual: number[], expected: number[], tolerance = 5) {
  expect(actual, `times ${actual} vs ${expected}`).toHaveLength(expected.length)
  actual.forEach((at, i) => {
    expect(at, `time #${i} of ${actual}`).toBeGreaterThanOrEqual(expected[i])
    expect(at, `time #${i} of ${actual}`).toBeLessThanOrEqual(expected[i] + tolerance)
  })
}

/** What a failure tells, whole: its event detail's fields, its console line, and whether it ends the run. */
export function factsOf(error: unknown) {
  expect(error).toBeInstanceOf(ServiceAuthFailure)
  const { reason, status, retryAfter, message, final } = error as ServiceAuthFailure
  return { reason, status, retryAfter, message, final }
}

/** What `promise` rejects with, as factsOf() tells it; a promise that resolves fails the test. */
export const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    (value) => expect.unreachable(`no failure, but ${JSON.stringify(value)}`),
    (error: unknown) => factsOf(error),
  )
