// The little of a Playwright Page the test kit uses, as a structural type: a Page (or a Frame)
// fits it as it is, and the kit needs no Playwright of its own, nor a particular version.

/** A Playwright `Page` or `Frame`, or anything with the same `locator()`. */
export interface PageLike {
  locator(selector: string): LocatorLike
}

/** The part of a Playwright `Locator` the kit calls. */
export interface LocatorLike {
  locator(selector: string): LocatorLike
  first(): LocatorLike
  nth(index: number): LocatorLike
  count(): Promise<number>
  waitFor(options: { state: 'visible'; timeout: number }): Promise<void>
  screenshot(options: { timeout: number }): Promise<Uint8Array>
  getAttribute(name: string, options: { timeout: number }): Promise<string | null>
  textContent(options: { timeout: number }): Promise<string | null>
  /** Runs `pageFunction` in the page with the element and `arg`, and resolves to what it returns (awaited). */
  evaluate<R>(pageFunction: (element: unknown, arg: string) => R | Promise<R>, arg: string): Promise<R>
}
