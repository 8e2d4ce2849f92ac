import { en, languages, pickLocale, type Texts } from './i18n.js'

/**
 * Mount options; each overrides the `data-service-*` attribute of the same name
 * (`authUrl` ↔ `data-service-auth-url`, and so on).
 */
export interface Options {
  /** API key. Required. */
  key?: string
  /** Your controller's path or URL; it must be on this page's origin. Required. */
  authUrl?: string
  /** Service base URL; the default is baked in at build time. */
  api?: string
  /** Image kind, default `qrcode-standard`. */
  authImage?: string
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

export interface Config {
  /** The `key` option, named apart from the request body's `key` so that build.mjs can shorten it. */
  apiKey: string
  authUrl: URL
  api: string
  image: string
  /** The `authType` option. */
  challengeType?: string
  imageData: boolean
  header: string
  autoStart: boolean
  locale: string
  /** The texts shown: English, the pack of `locale`, then the `texts` option (named apart so that build.mjs can shorten it). */
  wording: Texts
  /** The app URL template, on touch devices only: a code cannot be scanned from the screen showing it. */
  appUrl?: string | false
  /** Set when the markup or options are unusable; names the attribute at fault. */
  problem?: string
  /** Global functions the markup names to call with an event's detail, by event (Turnstile's and GIS's convention). */
  callbacks: Partial<Record<'success' | 'error' | 'expired', string>>
}

/** The attributes that name callbacks, by the event each hears. */
export const CALLBACK_ATTRIBUTES = {
  success: 'data-service-callback',
  error: 'data-service-error-callback',
  expired: 'data-service-expired-callback',
} as const

/** Reads and validates everything a widget needs, in one place. Never throws. */
export function readConfig(el: HTMLElement, options?: Options): Config {
  // `authUrl` reads `data-service-auth-url`, i.e. dataset.serviceAuthUrl.
  const read = (option: keyof Options): any =>
    options?.[option] ?? el.dataset['service' + option[0].toUpperCase() + option.slice(1)]
  const key = read('key')
  const authUrl = toUrl(read('authUrl'))
  const api = toUrl(read('api') ?? __API__)
  const appUrl = read('appUrl')
  const available = languages()
  const locale = pickLocale([read('locale'), document.documentElement.lang, ...navigator.languages], available)
  const invalid = !key
    ? 'key'
    : // The token must never leave this origin, so a controller elsewhere is refused outright.
      authUrl?.origin != location.origin
      ? 'auth-url'
      : !api
        ? 'api'
        : // Checked again with each challenge's id in it (see toAppLink).
          appUrl && !toAppLink(appUrl, '') && 'app-url'
  return {
    apiKey: key,
    authUrl,
    api: api?.href.replace(/\/+$/, ''),
    // A mistyped kind is found out by the service's answer, which lists the kinds it offers.
    image: read('authImage') || 'qrcode-standard',
    challengeType: read('authType'),
    imageData: read('imageData') + '' != 'false',
    header: read('authHeader') || 'X-Service-Auth',
    autoStart: read('autoStart') + '' != 'false',
    locale,
    // English fills in whatever a pack lacks.
    wording: { ...en, ...available[locale], ...options?.texts },
    appUrl: matchMedia('(pointer:coarse)').matches && appUrl,
    problem: invalid && 'data-service-' + invalid + ' is missing or invalid',
    callbacks: {
      success: el.getAttribute(CALLBACK_ATTRIBUTES.success) || undefined,
      error: el.getAttribute(CALLBACK_ATTRIBUTES.error) || undefined,
      expired: el.getAttribute(CALLBACK_ATTRIBUTES.expired) || undefined,
    },
  } as Config
}

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
    const parsed = typeof value == 'string' && value && new URL(value, document.baseURI)
    if (parsed && scheme.test(parsed.protocol)) return parsed
  } catch {
    // not a URL at all
  }
}
