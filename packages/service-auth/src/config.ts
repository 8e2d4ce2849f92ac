import { english, type Pack, type Texts } from './i18n.js'

/**
 * Mount options, each overriding the `data-service-*` attribute that `attributeOf()` names for it.
 * The React component's props have the same names.
 */
export interface Options {
  /** The service's API key. Required. */
  apiKey?: string
  /** Your controller's path or URL; it must be on this page's origin. Required. */
  authUrl?: string
  /** The service's base URL. Required, unless the build bakes in a default (`SERVICE_API_URL`). */
  api?: string
  /** Which QR image the service draws, default `qrcode-standard`. */
  imageKind?: string
  /** Sent as the challenge's `authType` when set (the spec knows `web`), as the incumbent embed did. */
  authType?: string
  /** Inline image data rather than image URLs, default true. */
  imageData?: boolean
  /** The name of the header that carries the token, default `X-Service-Auth`. */
  authHeader?: string
  /** Create a challenge as soon as mounted, default true. */
  autoStart?: boolean
  /** Language; default the element's `lang` (its own or the nearest around it), `<html lang>`, then the browser's. */
  locale?: string
  /**
   * The phone app's URL for a challenge, `{id}` standing for its id, e.g. `serviceauth://challenge/{id}`.
   * On touch devices the code becomes a link to it.
   */
  appUrl?: string
  /** Replaces any of the shown texts (options only). */
  texts?: Partial<Texts>
}

/**
 * The options that the markup names otherwise: it keeps the incumbent embed's attribute names
 * (`data-service-key`, `data-service-auth-image`), which integrators' pages already carry, while
 * the options have names that say what they hold. Every other option's attribute is its name in
 * kebab case: `authUrl` is `data-service-auth-url`.
 */
const RENAMED: Partial<Record<keyof Options, string>> = { apiKey: 'key', imageKind: 'auth-image' }

/** The attribute that an option overrides. */
export const attributeOf = (option: keyof Options): string =>
  'data-service-' + (RENAMED[option] || option.replace(/[A-Z]/g, (letter) => '-' + letter.toLowerCase()))

/** The attributes that name global functions to call with an event's detail, by event (Turnstile's convention). */
export const CALLBACK_ATTRIBUTES = {
  success: 'data-service-callback',
  error: 'data-service-error-callback',
  expired: 'data-service-expired-callback',
} as const

export type CallbackEvent = keyof typeof CALLBACK_ATTRIBUTES

/** What every widget has, whether or not its configuration is usable. */
export interface Settings {
  imageKind: string
  authType?: string
  imageData: boolean
  authHeader: string
  autoStart: boolean
  /** The `locale` option or attribute, which readTexts() reads with the page's languages. */
  locale?: string
  /** The `texts` option. */
  texts?: Partial<Texts>
  /** The app URL template, on touch devices only: a code cannot be scanned from the screen showing it. */
  appUrl?: string
}

/** A usable configuration: what a widget needs to talk to the service and the controller. */
export interface Config extends Settings {
  apiKey: string
  authUrl: URL
  /** The service's base URL, without a trailing slash. */
  api: string
  problem?: undefined
}

/** An unusable one: the widget shows an error, and `problem` names the attribute at fault. */
export interface Misconfigured extends Settings {
  problem: string
}

/**
 * Reads and validates every option, in one place. Never throws. Only what is cheap to read: the
 * first request waits for it. What only the view needs waits for the view (readTexts), and the
 * callbacks' attributes for their listeners (see callbacks.ts).
 */
export function readConfig(el: HTMLElement, options: Options = {}): Config | Misconfigured {
  const read = (option: keyof Options): unknown => options[option] ?? el.getAttribute(attributeOf(option))
  /** A string option; anything else (a number where a string belongs, say) reads as absent. */
  const text = (option: keyof Options): string | undefined => {
    const value = read(option)
    if (typeof value == 'string' && value) return value
  }
  /** A yes-or-no option: true unless it is `false` (or the attribute says `"false"`). */
  const flag = (option: keyof Options): boolean => String(read(option)) != 'false'

  const apiKey = text('apiKey')
  const authUrl = toUrl(text('authUrl'))
  const api = toUrl(text('api') ?? __API__)
  const appUrl = text('appUrl')
  const settings: Settings = {
    // A mistyped kind is found out by the service's answer, which lists the kinds it offers.
    imageKind: text('imageKind') || 'qrcode-standard',
    authType: text('authType'),
    imageData: flag('imageData'),
    authHeader: text('authHeader') || 'X-Service-Auth',
    autoStart: flag('autoStart'),
    locale: text('locale'),
    texts: options.texts,
    // Asked only when there is an app URL: a media query is not free, and most pages have none.
    appUrl: appUrl && matchMedia('(pointer:coarse)').matches ? appUrl : undefined,
  }
  const misconfigured = (option: keyof Options): Misconfigured => ({
    ...settings,
    problem: attributeOf(option) + ' is missing or invalid',
  })
  if (!apiKey) return misconfigured('apiKey')
  // The token must never leave this origin, so a controller elsewhere is refused outright.
  if (authUrl?.origin != location.origin) return misconfigured('authUrl')
  if (!api) return misconfigured('api')
  // Checked again with each challenge's id in it (see toAppLink).
  if (appUrl && !toAppLink(appUrl, '')) return misconfigured('appUrl')
  return { ...settings, apiKey, authUrl, api: api.href.replace(/\/+$/, '') }
}

/**
 * The language a widget on `el` speaks, and its texts: English, unless a pack loaded on this page
 * answers to the `locale` option or attribute, the element's language, `<html lang>` or the
 * browser's languages (the packs bring the choosing: see language-packs.ts). English fills
 * in whatever a pack lacks, and the `texts` option replaces any text.
 */
export const readTexts = ({ locale, texts }: Settings, el: HTMLElement): Pack => ({ ...english, ...self.ServiceAuthPickLanguage?.(el, locale), ...texts })

/**
 * The app link for a challenge: `template` with `{id}` replaced, checked after the replacement, as
 * the service chooses the id. Any scheme an app may register, but none that runs script in this
 * page (javascript:, and data:, which old browsers ran) or reaches into the browser (blob:,
 * file:). (vbscript: ran only in Internet Explorer, which cannot run this script at all.)
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
