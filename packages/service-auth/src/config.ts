import { english, type Pack, type Texts } from './i18n.js'

/** The type of an option's value, by the name the options table gives it. */
interface OptionTypes {
  string: string
  boolean: boolean
  texts: Partial<Texts>
}

/** A row of the options table. */
interface OptionRow {
  /** The CDN markup's attribute, on a `[data-service-auth]` element; none for `texts`, an object. */
  attribute?: string
  /** The `<service-auth>` element's attribute, also a property of the option's name that reflects it; none for `texts`, a property only. */
  element?: string
  /** What its value is: text, yes or no (an attribute that is not `false` says yes), or the texts object. */
  type: keyof OptionTypes
  /** Every typed surface requires it: the element's attributes, the React and Vue props. */
  required?: true
}

/**
 * Every option, once: the one vocabulary from which the attribute reader, the element's
 * attributes and properties, the React and Vue props and the README's options table derive (a test
 * holds each to it). Each row's comment is the option's one-line doc, which the editor shows on
 * each surface and the README's table repeats. The CDN markup keeps the incumbent embed's names
 * (`data-service-key`, `data-service-auth-image`), which integrators' pages already carry; the
 * element's are the options' names in kebab case.
 */
export const OPTIONS = {
  /** The API key the service issued. */
  apiKey: { attribute: 'data-service-key', element: 'api-key', type: 'string', required: true },
  /** Your controller's path or URL, on this page's origin: the token never leaves it. */
  authUrl: { attribute: 'data-service-auth-url', element: 'auth-url', type: 'string', required: true },
  /** The service's base URL, under which its status and image URLs must lie. */
  api: { attribute: 'data-service-api', element: 'api', type: 'string', required: true },
  /** Which QR image the service draws, default `qrcode-standard`. */
  imageKind: { attribute: 'data-service-auth-image', element: 'image-kind', type: 'string' },
  /** Sent as the challenge's `authType` when set (the spec knows `web`), as the incumbent embed did. */
  authType: { attribute: 'data-service-auth-type', element: 'auth-type', type: 'string' },
  /** Inline image data rather than image URLs, default on: the code shows after one round trip. */
  imageData: { attribute: 'data-service-image-data', element: 'image-data', type: 'boolean' },
  /** The header that carries the token, default `X-Service-Auth`; `Authorization` sends `Bearer <token>`. */
  authHeader: { attribute: 'data-service-auth-header', element: 'auth-header', type: 'string' },
  /** Shows a code as soon as mounted, default on; off, a button waits for a click or `start()`. */
  autoStart: { attribute: 'data-service-auto-start', element: 'auto-start', type: 'boolean' },
  /** The language: `en`, or a loaded pack's; default the element's `lang` (its own or the nearest around it), `<html lang>`, then the browser's. */
  locale: { attribute: 'data-service-locale', element: 'locale', type: 'string' },
  /** The phone app's URL for a challenge, `{id}` standing for its id; on touch devices the code links to it. */
  appUrl: { attribute: 'data-service-app-url', element: 'app-url', type: 'string' },
  /** Replaces any of the shown texts, by key. */
  texts: { type: 'texts' },
} as const satisfies Record<string, OptionRow>

/** An option's name. */
export type Option = keyof typeof OPTIONS

/** The value an option takes. */
export type OptionValue<K extends Option> = OptionTypes[(typeof OPTIONS)[K]['type']]

/** The options that markup can give, each by an attribute: all but `texts`, an object. */
export type MarkupOption = { [K in Option]: (typeof OPTIONS)[K] extends { attribute: string } ? K : never }[Option]

/** The options that every typed surface requires. */
export type RequiredOption = { [K in Option]: (typeof OPTIONS)[K] extends { required: true } ? K : never }[Option]

/**
 * Mount options, each overriding its attribute (see OPTIONS), all of them optional here: the
 * markup may give what they leave out. An option that is undefined is absent, as at run time, so
 * that `locale: user?.locale` checks under exactOptionalPropertyTypes too.
 */
export type Options = { [K in Option]?: OptionValue<K> | undefined }

/** The options as a component's props (React's, Vue's): each typed from the table, those it requires required. */
export type OptionProps = { [K in Option as K extends RequiredOption ? K : never]: OptionValue<K> } & {
  [K in Option as K extends RequiredOption ? never : K]?: OptionValue<K> | undefined
}

/**
 * The service's base URL of a widget that names none: the CDN script tag's own
 * `data-service-api`, for every widget on the page (auto.ts sets it), else the build's default.
 */
export const pageDefaults = { api: __API__ }

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
  /**
   * An option as the widget's surface spells it, for messages: a `<service-auth>` element's
   * attribute, the option (a prop) when mounted with options, else the CDN markup's attribute.
   */
  name(option: MarkupOption): string
}

/** A usable configuration: what a widget needs to talk to the service and the controller. */
export interface Config extends Settings {
  apiKey: string
  authUrl: URL
  /** The service's base URL, without a trailing slash. */
  api: string
  problem?: undefined
}

/** An unusable one: the widget shows an error, and `problem` names the option at fault. */
export interface Misconfigured extends Settings {
  problem: string
}

/**
 * Reads and validates every option, in one place. Never throws. Only what is cheap to read: the
 * first request waits for it. What only the view needs waits for the view (readTexts), and the
 * callbacks' attributes for their listeners (see callbacks.ts).
 */
export function readConfig(el: HTMLElement, options?: Options): Config | Misconfigured {
  const read = (option: MarkupOption): unknown => options?.[option] ?? el.getAttribute(OPTIONS[option].attribute)
  /** A string option; anything else (a number where a string belongs, say) reads as absent. */
  const text = (option: MarkupOption): string | undefined => {
    const value = read(option)
    if (typeof value == 'string' && value) return value
  }
  /** A yes-or-no option: true unless it is `false` (or the attribute says `"false"`). */
  const flag = (option: MarkupOption): boolean => String(read(option)) != 'false'

  const apiKey = text('apiKey')
  const authUrl = toUrl(text('authUrl'))
  const api = toUrl(text('api') ?? pageDefaults.api)
  const appUrl = text('appUrl')
  const settings: Settings = {
    // A mistyped kind is found out by the service's answer, which lists the kinds it offers.
    imageKind: text('imageKind') || 'qrcode-standard',
    authType: text('authType'),
    imageData: flag('imageData'),
    authHeader: text('authHeader') || 'X-Service-Auth',
    autoStart: flag('autoStart'),
    locale: text('locale'),
    texts: options?.texts,
    // Asked only when there is an app URL: a media query is not free, and most pages have none.
    appUrl: appUrl && matchMedia('(pointer:coarse)').matches ? appUrl : undefined,
    name: (option) => (el.localName == 'service-auth' ? OPTIONS[option].element : options ? option : OPTIONS[option].attribute),
  }
  const misconfigured = (option: MarkupOption, why = 'missing or invalid'): Misconfigured => ({ ...settings, problem: settings.name(option) + ' is ' + why })
  if (!apiKey) return misconfigured('apiKey')
  // The token must never leave this origin, so a controller elsewhere is refused outright.
  // The document's own origin, which an about:srcdoc frame's location does not have ("null").
  if (authUrl?.origin != self.origin) return misconfigured('authUrl', authUrl && "not on this page's origin")
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
