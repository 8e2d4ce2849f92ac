// What /fixture?... asks for, read and validated in one place. Every widget attribute can be
// set, left out, or (for the three with defaults) removed with __none__, so end-to-end tests
// can build any markup an integrator might write.
import { FieldValidator } from '@service-auth/http'

/** Query parameter > widget attribute. Names follow the attributes the embed reads (src/config.ts). */
const ATTRIBUTE_PARAMS: Record<string, string> = {
  key: 'data-service-key',
  'auth-url': 'data-service-auth-url',
  api: 'data-service-api',
  image: 'data-service-auth-image',
  'image-data': 'data-service-image-data',
  header: 'data-service-auth-header',
  'auto-start': 'data-service-auto-start',
  locale: 'data-service-locale',
  style: 'data-service-style',
  theme: 'data-service-theme',
  'app-url': 'data-service-app-url',
  'auth-type': 'data-service-auth-type',
}

/** `packs`: all, none, or pack codes (`de`, `pt-BR`) separated by commas. */
const PACKS = /^(all|none|[a-z]{2}(-[A-Z]{2})?(,[a-z]{2}(-[A-Z]{2})?)*)$/

/** Removes the attribute, even one that has a default. */
const NONE = '__none__'

export interface FixtureOptions {
  /** Full attribute name > value, for each widget. */
  widgetSettings: Record<string, string>
  /** Undefined leaves `<html lang>` off. */
  lang: string | undefined
  /** Widgets on the page, 1 to 4. */
  count: number
  /** Send a strict Content-Security-Policy, with Trusted Types enforced. */
  strictCsp: boolean
  /** The same policy without `data:` in img-src, as an integrator might copy it (`csp=strict-no-data`): the QR image is blocked. */
  noDataImages: boolean
  /** Link the embed's stylesheet in <head>, as the README's snippet does (`css=none` leaves it out). */
  stylesheetLink: boolean
  /**
   * The language packs loaded before the script, by the names of their files in dist/
   * (service-auth.<name>.js): by default `languages`, every pack in one file, as a multilingual
   * site would (`packs=all`); `packs=none` loads none, and `packs=ar,de` those packs' own files.
   */
  languagePacks: string[]
  /** Give the script tag an integrity hash. */
  sri: boolean
  /** Include the script tag twice, to test that a second copy does nothing. */
  scriptTwice: boolean
  /** No widget in the markup: late.js adds and removes one on button clicks. */
  late: boolean
}

export function readFixtureOptions(query: URLSearchParams, defaults: { key: string; api: string }): FixtureOptions {
  const withDefaults: Record<string, string> = { key: defaults.key, 'auth-url': '/auth/controller', api: defaults.api }
  const widgetSettings: Record<string, string> = {}
  for (const [param, attribute] of Object.entries(ATTRIBUTE_PARAMS)) {
    const value = query.get(param) ?? withDefaults[param]
    if (value !== undefined && value !== NONE) widgetSettings[attribute] = value
  }

  // Only the parameters present are checked; each maps to a field of the 400, as a body would.
  const given = (name: string) => query.get(name) ?? undefined
  const fields = new FieldValidator({
    count: query.has('count') ? Number(query.get('count')) : undefined,
    csp: given('csp'),
    sri: given('sri'),
    script: given('script'),
    late: given('late'),
    css: given('css'),
    packs: given('packs'),
  })
  const count = fields.integer('count', 1, 4) ?? 1
  const csp = fields.choice('csp', ['strict', 'strict-no-data'])
  const strictCsp = csp !== undefined
  const noDataImages = csp === 'strict-no-data'
  const sri = fields.choice('sri', ['0', '1']) === '1'
  const scriptTwice = fields.choice('script', ['once', 'twice']) === 'twice'
  const late = fields.choice('late', ['0', '1']) === '1'
  const stylesheetLink = fields.choice('css', ['link', 'none']) !== 'none'
  const packs = fields.string('packs', {
    pattern: { regex: PACKS, kind: 'notAValidChoice', message: 'Choose all, none, or pack codes separated by commas (de,pt-BR).' },
  })
  const languagePacks = packs == 'none' ? [] : !packs || packs == 'all' ? ['languages'] : packs.split(',')
  fields.check()

  const lang = query.get('lang') ?? 'en'
  return { widgetSettings, lang: lang === NONE ? undefined : lang, count, strictCsp, noDataImages, stylesheetLink, languagePacks, sri, scriptTwice, late }
}
