// How a pack joins the page, and which pack a widget speaks: the picking order and BCP 47's
// fallbacks, case by case, with every pack loaded as service-auth.languages.js loads them.
import { readdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Pack } from '../src/i18n.js'
import { addLanguage, pickLanguage } from '../src/language-packs.js'
import { pack as german } from '../src/languages/de.js'

/** Every pack in src/languages/, by the code its file is named by (`de`, `zh-TW`). */
const packs: Record<string, Pack> = Object.fromEntries(
  await Promise.all(
    (await readdir(join(dirname(fileURLToPath(import.meta.url)), '../src/languages')))
      .flatMap((name) => /^([a-z]{2}(-[A-Z]{2})?)\.ts$/.exec(name)?.[1] ?? [])
      .map(async (code) => [code, ((await import(`../src/languages/${code}.ts`)) as { pack: Pack }).pack] as const),
  ),
)
/** The code of the pack a widget on `el` speaks, or `en`. */
const picked = (el: Element, locale?: string) => {
  const pack = pickLanguage(el, locale)
  return pack ? Object.keys(packs).find((code) => packs[code] === pack) : 'en'
}

let el: HTMLElement
beforeEach(() => {
  el = document.body.appendChild(document.createElement('div'))
  vi.spyOn(navigator, 'languages', 'get').mockReturnValue([])
})
afterEach(() => {
  document.body.replaceChildren()
  document.documentElement.removeAttribute('lang')
  delete window.ServiceAuthTexts
  delete window.ServiceAuthPickLanguage
  vi.restoreAllMocks()
})

describe('addLanguage', () => {
  it('adds a pack under its own tag and every other it answers to, in lower case', () => {
    addLanguage(packs['zh-TW'])
    expect(Object.keys(window.ServiceAuthTexts!)).toEqual(['zh-tw', 'zh-hant', 'zh-hk', 'zh-mo'])
    expect(new Set(Object.values(window.ServiceAuthTexts!))).toEqual(new Set([packs['zh-TW']]))
  })

  it('adds each pack beside the others, and brings the chooser the widget asks (the first pack does)', () => {
    expect(window.ServiceAuthPickLanguage).toBeUndefined()
    addLanguage(german)
    const chooser = window.ServiceAuthPickLanguage
    expect(chooser).toBe(pickLanguage)
    addLanguage(packs.fr)
    expect(window.ServiceAuthTexts).toEqual({ de: german, fr: packs.fr })
    expect(window.ServiceAuthPickLanguage).toBe(chooser)
  })

  it('leaves a chooser already there alone (a second copy, or another version, of the packs)', () => {
    const own = vi.fn()
    window.ServiceAuthPickLanguage = own
    addLanguage(german)
    expect(window.ServiceAuthPickLanguage).toBe(own)
  })
})

describe('pickLanguage, with every pack loaded', () => {
  beforeEach(() => Object.values(packs).forEach(addLanguage))

  it.each([
    // A language, and the same with a region, a script or a variant: the pack of the language.
    ['de', 'de'],
    ['de-AT', 'de'],
    ['de-CH-1996', 'de'],
    ['DE-at', 'de'],
    ['ar-EG', 'ar'],
    ['fa-IR', 'fa'],
    ['he-IL', 'he'],
    ['sr-Latn-RS', 'sr'],
    // Portuguese: European unless Brazilian, as the EU writes it and Angola and Mozambique do.
    ['pt', 'pt'],
    ['pt-PT', 'pt'],
    ['pt-AO', 'pt'],
    ['pt-BR', 'pt-BR'],
    // Chinese: Traditional for Taiwan, Hong Kong, Macao and zh-Hant; Simplified otherwise.
    ['zh-TW', 'zh-TW'],
    ['zh-Hant', 'zh-TW'],
    ['zh-Hant-TW', 'zh-TW'],
    ['zh-HK', 'zh-TW'],
    ['zh-Hant-HK', 'zh-TW'],
    ['zh-MO', 'zh-TW'],
    ['zh', 'zh-CN'],
    ['zh-CN', 'zh-CN'],
    ['zh-Hans', 'zh-CN'],
    ['zh-Hans-CN', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    // Norwegian: Bokmål for nb, no and Nynorsk, which has no pack.
    ['nb', 'nb'],
    ['nb-NO', 'nb'],
    ['no', 'nb'],
    ['no-NO', 'nb'],
    ['nn-NO', 'nb'],
    // Tags before 1989, and Filipino, Tagalog's standard form.
    ['iw', 'he'],
    ['in-ID', 'id'],
    ['fil-PH', 'tl'],
    // English, built in.
    ['en', 'en'],
    ['en-GB', 'en'],
  ])('%s speaks %s', (tag, code) => {
    expect(picked(el, tag)).toBe(code)
  })

  it.each([['xx'], ['x-klingon'], ['constructor'], ['__proto__'], ['hasOwnProperty'], ['-'], ['de_AT'], ['']])(
    'takes %j for no language: English, or the next one asked',
    (tag) => {
      expect(picked(el, tag)).toBe('en')
      vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['fr'])
      expect(picked(el, tag)).toBe('fr')
    },
  )
})

describe('pickLanguage: the order', () => {
  beforeEach(() => ['de', 'fr', 'it', 'nl', 'pl'].forEach((code) => addLanguage(packs[code])))

  it('the locale option or attribute first', () => {
    el.lang = 'fr'
    document.documentElement.lang = 'it'
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['nl'])
    expect(picked(el, 'de')).toBe('de')
  })

  it("then the element's own lang", () => {
    el.lang = 'fr'
    document.documentElement.lang = 'it'
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['nl'])
    expect(picked(el)).toBe('fr')
  })

  it('then the nearest lang around it', () => {
    const section = document.body.appendChild(document.createElement('section'))
    section.lang = 'pl'
    section.append(el)
    document.documentElement.lang = 'it'
    expect(picked(el)).toBe('pl')
  })

  it('then <html lang>', () => {
    document.documentElement.lang = 'it'
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['nl'])
    expect(picked(el)).toBe('it')
  })

  it("then the browser's languages, in the browser's order", () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['ja', 'nl-BE', 'de'])
    expect(picked(el)).toBe('nl')
  })

  it('passes over what asks for a language without a pack, to the next that has one', () => {
    el.lang = 'ja'
    document.documentElement.lang = 'sv'
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['ko', 'pl-PL'])
    expect(picked(el, 'th')).toBe('pl')
  })

  it('stops at English: a page in English speaks English, whatever the browser prefers', () => {
    document.documentElement.lang = 'en-US'
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de'])
    expect(picked(el)).toBe('en')
  })

  it('an empty lang says nothing, and the next is asked', () => {
    el.lang = ''
    el.setAttribute('lang', '')
    document.documentElement.lang = 'it'
    expect(picked(el)).toBe('it')
  })

  it('never picks a pack that is not loaded', () => {
    expect(picked(el, 'sv')).toBe('en')
    delete window.ServiceAuthTexts
    expect(picked(el, 'de')).toBe('en')
  })
})
