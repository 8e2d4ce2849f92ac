import { en, languages, pickLocale, type Texts } from './i18n.js'

/**
 * Mount options; each overrides its `data-service-*` attribute (see ATTRIBUTES), the React
 * component takes the same names.
 */
export interface Options {
  /** API key (`data-service-key`). Required. */
  apiKey?: string
  /** Your controller's path or URL; it must be on this page's origin. Required. */
  authUrl?: string
  /** Service base URL; the default is baked in at build time. */
  api?: string
  /** Image kind (`data-service-auth-image`), default `qrcode-standard`. */
  imageKind?: string
  /** Sent as the challenge's `authType` when set (the spec knows `web`), as the incumbent embed did. */
  authType?: string
  /** Inline image data rather than image URLs, default true (`data-service-image-data="false"` turns it off). */
  imageData?: boolean
  /** Name of the header that carries the token, default `X-Service-Auth`. */
  authHeader?: string
  /** Create a challenge as soon as mounted, default true. */
  autoStart?: boolean
  /** Language; default `<html lang>`, then the browser's. */
  locale?: string
  /**
   * The phone app's URL for a challenge, `{id}` standing for its id, e.g. `serviceauth://challenge/{id}`.
   * On touch devices the code becomes a link to it.
   */
  appUrl?: string
  /** Replaces any of the shown texts (code only). */
  texts?: Partial<Texts>
}

/**
 * The attribute each option overrides. The attributes are the incumbent embed's, which pages
 * already carry, so they keep their names even where the options' differ.
 */
export const ATTRIBUTES = {
  apiKey: 'data-service-key',
  authUrl: 'data-service-auth-url',
  api: 'data-service-api',
  imageKind: 'data-service-auth-image',
  authType: 'data-service-auth-type',
  imageData: 'data-service-image-data',
  authHeader: 'data-service-auth-header',
  autoStart: 'data-service-auto-start',
  locale: 'data-service-locale',
  appUrl: 'data-service-app-url',
} as const satisfies Record<keyof Omit<Options, 'texts'>, string>

/** Events that a page may follow with a global function named in an attribute, as with Turnstile's `data-callback`. */
export const CALLBACK_ATTRIBUTES = {
  success: 'data-service-callback',
  error: 'data-service-error-callback',
  expired: 'data-service-expired-callback',
} as const

export type CallbackEvent = keyof typeof CALLBACK_ATTRIBUTES
export const CALLBACK_EVENTS = Object.keys(CALLBACK_ATTRIBUTES) as CallbackEvent[]

/** The names of the global functions the callback attributes give, by event (null: no attribute). */
export type Callbacks = Partial<Record<CallbackEvent, string | null>>

/** What a widget needs to run, read and validated. */
export interface Config {
  apiKey: string
  authUrl: URL
  /** The service's base URL, without a trailing slash. */
  api: string
  imageKind: string
  authType?: string
  imageData: boolean
  authHeader: string
  autoStart: boolean
  /** The app URL template, on touch devices only: a code cannot be scanned from the screen showing it. */
  appUrl?: string
}

/**
 * What readConfig finds: the language and the callbacks either way (an error is shown and
 * reported too), and either a config or the problem that names the attribute at fault.
 */
export type Setup = { locale: string; texts: Texts; callbacks: Callbacks } & ({ config: Config; problem?: undefined } | { config?: undefined; problem: string })

/** The message for an attribute (or its option) that is missing or invalid. */
export const invalid = (attribute: string): string => attribute + ' is missing or invalid'

/** Reads and validates everything a widget needs, in one place. Never throws. */
export function readConfig(el: HTMLElement, options: Options = {}): Setup {
  const read = <K extends keyof typeof ATTRIBUTES>(name: K): Options[K] | string | null => options[name] ?? el.getAttribute(ATTRIBUTES[name])
  // Only "false" turns a default-on switch off, as in the incumbent embed.
  const on = (name: 'imageData' | 'autoStart') => String(read(name)) != 'false'
  const apiKey = read('apiKey')
  const authUrl = toUrl(read('authUrl'))
  const api = toUrl(read('api') ?? __API__)
  const appUrl = read('appUrl')
  const available = languages()
  const locale = pickLocale([read('locale'), document.documentElement.lang, ...navigator.languages], available)
  const callbacks: Callbacks = {}
  for (const event of CALLBACK_EVENTS) callbacks[event] = el.getAttribute(CALLBACK_ATTRIBUTES[event])
  // English fills in whatever a pack lacks.
  const setup = { locale, texts: { ...en, ...available[locale], ...options.texts }, callbacks }

  const refuse = (name: keyof typeof ATTRIBUTES) => ({ ...setup, problem: invalid(ATTRIBUTES[name]) })
  if (!apiKey) return refuse('apiKey')
  // The token must never leave this origin, so a controller elsewhere is refused outright.
  if (authUrl?.origin != location.origin) return refuse('authUrl')
  if (!api) return refuse('api')
  // Checked again with each challenge's id in it (see toAppLink).
  if (appUrl && !toAppLink(appUrl, '')) return refuse('appUrl')
  return {
    ...setup,
    config: {
      apiKey,
      authUrl,
      api: api.href.replace(/\/+$/, ''),
      // A mistyped kind is found out by the service's answer, which lists the kinds it offers.
      imageKind: read('imageKind') || 'qrcode-standard',
      authType: read('authType') ?? undefined,
      imageData: on('imageData'),
      authHeader: read('authHeader') || 'X-Service-Auth',
      autoStart: on('autoStart'),
      appUrl: (matchMedia('(pointer:coarse)').matches && appUrl) || undefined,
    },
  }
}

/**
 * The app link for a challenge: `template` with `{id}` replaced, checked after the replacement, as
 * the service chooses the id. Any scheme an app may register, but none that runs script in this
 * page (javascript:, and data:, which old browsers ran) or reaches into the browser (blob:,
 * file:). (vbscript: ran only in Internet Explorer, which cannot run this script at all.)
 * The id must be well-formed (api.ts checks it): encodeURIComponent throws on a lone surrogate.
 */
export const toAppLink = (template: string, id: string): string | undefined =>
  toUrl(template.replace('{id}', encodeURIComponent(id)), /^(?!(javascript|data|blob|file):)/)?.href

/** `value` resolved against the page, if it is a URL whose scheme (say `https:`) matches `scheme`: by default http(s). */
export const toUrl = (value: unknown, scheme = /^https?:/): URL | undefined => {
  try {
    const parsed = typeof value == 'string' && value ? new URL(value, document.baseURI) : undefined
    if (parsed && scheme.test(parsed.protocol)) return parsed
  } catch {
    // not a URL at all
  }
}
