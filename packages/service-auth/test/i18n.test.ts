// What the language packs say: each complete, translated (no English left behind), and true to
// its language's direction and digits as Intl knows them.
import { readdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { en, english, type Language, type Pack, type Texts } from '../src/i18n.js'

/** Every pack in src/languages/, by the code its file is named by (`de`, `zh-TW`), with its name in English. */
const sources: Record<string, { name: string; pack: Pack }> = Object.fromEntries(
  await Promise.all(
    (await readdir(join(dirname(fileURLToPath(import.meta.url)), '../src/languages')))
      .flatMap((name) => /^([a-z]{2}(-[A-Z]{2})?)\.ts$/.exec(name)?.[1] ?? [])
      .map(async (code) => [code, (await import(`../src/languages/${code}.ts`)) as { name: string; pack: Pack }] as const),
  ),
)
const packs = Object.entries(sources).map(([code, { pack }]) => [code, pack] as const)
/** What a pack says of its language, as opposed to its texts. */
const LANGUAGE_KEYS: (keyof Language)[] = ['lang', 'dir', 'digits', 'also']
const textsOf = (pack: Pack) => Object.fromEntries(Object.entries(pack).filter(([key]) => !LANGUAGE_KEYS.includes(key as keyof Language)))

/**
 * Texts that may read as the English ones do, each with its reason. None today: a text equal to
 * English is English left behind, unless it is listed here.
 */
const SAME_AS_ENGLISH: Record<string, { key: keyof Texts; why: string }[]> = {}

describe('the packs', () => {
  it('cover every official language of the EU and every language Turnstile offers: more than 40, with English', () => {
    const eu = ['bg', 'cs', 'da', 'de', 'el', 'es', 'et', 'fi', 'fr', 'ga', 'hr', 'hu', 'it', 'lt', 'lv', 'mt', 'nl', 'pl', 'pt', 'ro', 'sk', 'sl', 'sv']
    const turnstile = ['ar', 'fa', 'he', 'hi', 'id', 'ja', 'ko', 'ms', 'nb', 'pt-BR', 'ru', 'sr', 'th', 'tl', 'tr', 'uk', 'vi', 'zh-CN', 'zh-TW']
    expect(Object.keys(sources).sort()).toEqual([...eu, ...turnstile].sort())
    expect(Object.keys(sources).length + 1).toBeGreaterThanOrEqual(40)
  })

  it.each(packs)('%s has every text English has, and nothing else', (_, pack) => {
    expect(Object.keys(textsOf(pack)).sort()).toEqual(Object.keys(en).sort())
  })

  it.each(packs)('%s leaves no English behind: every text is its own', (code, pack) => {
    const allowed = new Set((SAME_AS_ENGLISH[code] ?? []).map(({ key }) => key))
    for (const [key, text] of Object.entries(textsOf(pack))) {
      expect(text.trim(), key).not.toBe('')
      if (!allowed.has(key as keyof Texts)) expect(text, `${code}.${key} is the English text`).not.toBe(en[key as keyof Texts])
    }
  })

  // The languages that are not written in Latin letters.
  const OWN_SCRIPT = ['ar', 'bg', 'el', 'fa', 'he', 'hi', 'ja', 'ko', 'ru', 'sr', 'th', 'uk', 'zh-CN', 'zh-TW']
  it.each(packs.filter(([code]) => OWN_SCRIPT.includes(code)))('%s, in a script of its own, has no Latin letters but "QR"', (code, pack) => {
    for (const [key, text] of Object.entries(textsOf(pack))) expect(text.replace(/QR/g, ''), `${code}.${key}`).not.toMatch(/[a-z]/i)
  })

  it.each(packs)('%s keeps the shape of each English text: its placeholders, the countdown prefix ending in a space, … for what is under way', (_, pack) => {
    const texts = textsOf(pack) as Texts
    // The countdown's clock follows `left` directly: "Expires in 4:59".
    expect(texts.left).toMatch(/\S $/)
    for (const [key, text] of Object.entries(en) as [keyof Texts, string][]) {
      expect(texts[key].endsWith('…'), key).toBe(text.endsWith('…'))
      expect(texts[key].match(/\{\w+\}/g), key).toEqual(text.match(/\{\w+\}/g))
    }
  })

  it.each(packs)("%s names its language by a well-formed BCP 47 tag, its file's code or, for pt, pt-PT; its other tags in lower case", (code, pack) => {
    // Well-formed, not canonical: CLDR's canonical form of `tl` is `fil`, and of `iw`, `he`;
    // the old or other tag is the point of answering to it.
    expect(() => Intl.getCanonicalLocales([pack.lang, ...(pack.also ?? [])])).not.toThrow()
    expect(pack.lang).toBe(code == 'pt' ? 'pt-PT' : code)
    for (const tag of pack.also ?? []) expect(tag).toBe(tag.toLowerCase())
  })

  it('answer to a tag each: no two packs claim one', () => {
    const tags = packs.flatMap(([, pack]) => [pack.lang, ...(pack.also ?? [])].map((tag) => tag.toLowerCase()))
    expect(tags.length).toBe(new Set(tags).size)
  })

  it.each(packs)('%s is written in the direction Intl gives its language', (_, pack) => {
    const locale = new Intl.Locale(pack.lang) as Intl.Locale & { getTextInfo?: () => { direction: string }; textInfo?: { direction: string } }
    const { direction } = locale.getTextInfo?.() ?? locale.textInfo!
    expect(pack.dir ?? 'ltr').toBe(direction)
  })

  it('Arabic, Persian and Hebrew, and no others, are right to left', () => {
    expect(packs.filter(([, pack]) => pack.dir == 'rtl').map(([code]) => code)).toEqual(['ar', 'fa', 'he'])
  })

  /** The ten digits Intl writes for `locale` in `numberingSystem` (its default without). */
  const intlDigits = (locale: string, numberingSystem?: string) =>
    Array.from({ length: 10 }, (_, digit) => digit.toLocaleString(locale, { numberingSystem })).join('')

  it.each(packs)('%s writes its countdown in the digits Intl writes for it', (code, pack) => {
    // Arabic in Arabic-Indic digits, which CLDR no longer takes for plain `ar` (its Latin digits
    // are the Maghreb's): a login page in Arabic writes ٠١٢.
    const numberingSystem = code == 'ar' ? 'arab' : undefined
    expect(pack.digits ?? '0123456789').toBe(intlDigits(pack.lang, numberingSystem))
  })

  it('English, built in, is left to right in Latin digits', () => {
    expect(english).toEqual({ lang: 'en', dir: 'ltr', ...en })
    expect(english.digits).toBeUndefined()
  })

  it('English has no empty text', () => {
    for (const text of Object.values(en)) expect(text.trim()).not.toBe('')
  })

  it('each pack names its language in English, for the README', () => {
    for (const [code, { name }] of Object.entries(sources)) expect(name, code).toMatch(/^[A-Z][\p{L} ()]+$/u)
  })
})
