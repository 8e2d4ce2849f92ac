// The few commands of classic WebDriver (W3C) that the engines' suite uses, over fetch: enough
// for WebKitWebDriver, without a client library and its dependency tree. Every call is bounded,
// so a driver that stops answering ends the test rather than hangs it.

/** The key under which WebDriver names an element (W3C WebDriver, "web element identifier"). */
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf'

export class WebDriverError extends Error {
  constructor(
    readonly command: string,
    readonly error: string,
    message: string,
  ) {
    super(`${command}: ${error}: ${message}`)
  }
}

export class WebDriverSession {
  private constructor(
    private readonly base: string,
    readonly id: string,
    readonly capabilities: Record<string, unknown>,
    private readonly bound: number,
  ) {}

  /** Starts a session at the driver listening on `base` (http://127.0.0.1:PORT). */
  static async start(base: string, capabilities: Record<string, unknown>, bound = 60_000): Promise<WebDriverSession> {
    const value = await send<{ sessionId: string; capabilities: Record<string, unknown> }>(
      base,
      'POST',
      '/session',
      { capabilities: { alwaysMatch: capabilities } },
      bound,
    )
    return new WebDriverSession(base, value.sessionId, value.capabilities, bound)
  }

  command<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    return send<T>(this.base, method, `/session/${this.id}${path}`, body, this.bound)
  }

  navigate = (url: string) => this.command<void>('POST', '/url', { url })
  back = () => this.command<void>('POST', '/back', {})
  currentUrl = () => this.command<string>('GET', '/url')
  /** Runs `script` as a function body with `args`; a promise it returns is awaited (WebDriver's execute script does). */
  execute = <T>(script: string, args: unknown[] = []) => this.command<T>('POST', '/execute/sync', { script, args })
  windowHandle = () => this.command<string>('GET', '/window')
  newWindow = async () => (await this.command<{ handle: string }>('POST', '/window/new', { type: 'tab' })).handle
  switchToWindow = (handle: string) => this.command<void>('POST', '/window', { handle })
  closeWindow = () => this.command<string[]>('DELETE', '/window')
  async findElement(xpath: string): Promise<string> {
    return (await this.command<Record<string, string>>('POST', '/element', { using: 'xpath', value: xpath }))[ELEMENT]!
  }
  clickElement = (element: string) => this.command<void>('POST', `/element/${element}/click`, {})
  end = () => send<void>(this.base, 'DELETE', `/session/${this.id}`, undefined, this.bound)
}

async function send<T>(base: string, method: string, path: string, body: unknown, bound: number): Promise<T> {
  const response = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(bound),
  })
  const { value } = (await response.json()) as { value: T & { error?: string; message?: string } }
  if (!response.ok) throw new WebDriverError(`${method} ${path}`, value?.error ?? String(response.status), value?.message ?? '')
  return value
}
