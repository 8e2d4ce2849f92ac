import { pickLocale, textsFor, type Texts } from './i18n'

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
  /** Inline image data rather than image URLs, default true (`data-service-image-data="false"` turns it off). */
  imageData?: boolean
  /** Name of the header that carries the token, default `X-Service-Auth`. */
  authHeader?: string
  /** Create a challenge as soon as mounted, default true. */
  autoStart?: boolean
  /** Language; default `<html lang>`, then the browser's. */
  locale?: string
  /** Replaces any of the shown texts (code only). */
  texts?: Partial<Texts>
}

export interface Config {
  key: string
  authUrl: URL
  api: string
  image: string
  imageData: boolean
  header: string
  autoStart: boolean
  lang: string
  texts: Texts
  /** Set when the markup or options are unusable; names the attribute at fault. */
  problem?: string
}

/** Reads and validates everything a widget needs, in one place. Never throws. */
export function readConfig(el: HTMLElement, options: Options = {}): Config {
  // `authUrl` reads `data-service-auth-url`, i.e. dataset.serviceAuthUrl.
  const read = (option: keyof Options): any =>
    options[option] ?? el.dataset['service' + option[0].toUpperCase() + option.slice(1)]
  const key = read('key')
  const authUrl = httpUrl(read('authUrl'))
  const api = httpUrl(read('api') ?? __API__)
  const image = read('authImage') || 'qrcode-standard'
  const header = read('authHeader') || 'X-Service-Auth'
  const lang = pickLocale([read('locale'), document.documentElement.lang, ...navigator.languages])
  const invalid = !key
    ? 'key'
    : // The token must never leave this origin, so a controller elsewhere is refused outright.
      authUrl?.origin != location.origin
      ? 'auth-url'
      : !api && 'api'
  return {
    key,
    authUrl,
    api: api?.href.replace(/\/+$/, ''),
    image,
    imageData: read('imageData') + '' != 'false',
    header,
    autoStart: read('autoStart') + '' != 'false',
    lang,
    texts: { ...textsFor[lang], ...options.texts },
    problem: invalid && `data-service-${invalid} is missing or invalid`,
  } as Config
}

/** `value` resolved against the page, if it is an http(s) URL. */
export function httpUrl(value: unknown): URL | undefined {
  try {
    const url = typeof value == 'string' && value && new URL(value, document.baseURI)
    if (url && /^https?:$/.test(url.protocol)) return url
  } catch {
    // not a URL at all
  }
}
