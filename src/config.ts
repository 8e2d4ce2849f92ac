import { pickLocale, textsFor, type Texts } from './i18n'

/** Mount options; each overrides its `data-service-*` attribute. */
export interface Options {
  /** API key (`data-service-key`). */
  key?: string
  /** Your controller's path or URL; it must be on this page's origin (`data-service-auth-url`). */
  authUrl?: string
  /** Service base URL (`data-service-api`). */
  api?: string
  /** Image kind (`data-service-auth-image`), default `qrcode-standard`. */
  image?: string
  /** Inline image data rather than image URLs (`data-service-image-data`), default true. */
  imageData?: boolean
  /** Name of the header that carries the token (`data-service-auth-header`), default `X-Service-Auth`. */
  header?: string
  /** Create a challenge as soon as mounted (`data-service-auto-start`), default true. */
  autoStart?: boolean
  /** Language (`data-service-locale`); default `<html lang>`, then the browser's. */
  locale?: string
  /** Replaces any of the shown texts. */
  texts?: Partial<Texts>
}

export interface Config {
  key: string
  authUrl: string
  api: string
  image: string
  imageData: boolean
  header: string
  autoStart: boolean
  lang: string
  texts: Texts
  /** Set when the markup or options are unusable; names the attribute at fault. */
  error?: string
}

/** Reads and validates everything a widget needs, in one place. Never throws. */
export function readConfig(el: Element, options: Options = {}): Config {
  const read = (option: keyof Options, name: string): any => options[option] ?? el.getAttribute('data-service-' + name)
  const key = read('key', 'key')
  const authUrl = httpUrl(read('authUrl', 'auth-url'))
  const api = httpUrl(read('api', 'api') ?? __API__)
  const image = read('image', 'auth-image') || 'qrcode-standard'
  const header = read('header', 'auth-header') || 'X-Service-Auth'
  const lang = pickLocale([read('locale', 'locale'), el.closest('[lang]')?.getAttribute('lang'), ...navigator.languages])
  const invalid = !/^[\x21-\x7e]+$/.test(key)
    ? 'key'
    : // The token must never leave this origin, so a controller elsewhere is refused outright.
      authUrl?.origin != location.origin
      ? 'auth-url'
      : !api
        ? 'api'
        : !/^[\w-]+$/.test(image)
          ? 'auth-image'
          : !/^[\w-]+$/.test(header) && 'auth-header'
  return {
    key,
    authUrl: authUrl?.href,
    api: api?.href.replace(/\/+$/, ''),
    image,
    imageData: read('imageData', 'image-data') + '' != 'false',
    header,
    autoStart: read('autoStart', 'auto-start') + '' != 'false',
    lang,
    texts: { ...textsFor(lang), ...options.texts },
    error: invalid && `data-service-${invalid} is missing or invalid`,
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
