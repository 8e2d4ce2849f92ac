// What a scenario may ask of a browser, whichever engine and protocol is behind it. Each adapter
// in drivers/ is thin: it maps these calls onto its protocol and nothing more. Waiting is not
// here: scenarios wait on state by asking again (e2e/until.ts).

export type EngineName = 'chromium' | 'firefox' | 'webkit'

export interface Engine {
  name: EngineName
  /** The browser and its version as the browser reports it, for the report. */
  version: string
  /** A new tab of its own (cookies and storage apart from the last); the scenario's only tab. */
  newTab(): Promise<Tab>
  close(): Promise<void>
}

export interface Tab {
  /** Opens `url` and resolves once it has loaded. */
  goto(url: string): Promise<void>
  /** Runs `fn` in the page with JSON `args`, and resolves with its JSON result (awaited if a promise). */
  evaluate<A extends unknown[], R>(fn: (...args: A) => R, ...args: A): Promise<Awaited<R>>
  /** Clicks the button whose text is `name`, as a person would. */
  click(name: string): Promise<void>
  /** Goes back in history; resolves once the browser has started to, not once a page has loaded. */
  back(): Promise<void>
  /**
   * Console errors, uncaught errors and unhandled rejections the browser told its driver of,
   * oldest first. Empty where the protocol has no log (classic WebDriver): there the pages' own
   * record (window.__problems, from demo/app/public/events.js) stands in.
   */
  logged(): string[]
  close(): Promise<void>
}

/**
 * A function's source with its JSON arguments, as one expression for protocols that take a string.
 * esbuild with keepNames (tsx compiles so) wraps inner functions in `__name(fn, "name")`, which
 * the page does not have: it gets one that hands the function back.
 */
export const callExpression = (fn: (...args: never[]) => unknown, args: unknown[]): string =>
  `((__name) => (${fn.toString()})(...${JSON.stringify(args)}))((fn) => fn)`
