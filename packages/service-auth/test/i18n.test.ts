import { readdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { addLanguage, en, languages, pickLocale, type Texts } from '../src/i18n.js'
import { texts as de } from '../src/languages/de.js'

afterEach(() => {
  delete window.ServiceAuthTexts
})

describe('pickLocale', () => {
  const available = { en, de }

  it('takes the first candidate it has texts for, by its language subtag', () => {
    expect(pickLocale(['fr-CA', 'de-AT', 'en'], available)).toBe('de')
    expect(pickLocale(['EN-gb', 'de'], available)).toBe('en')
  })

  it('skips empty and missing candidates', () => {
    expect(pickLocale([undefined, null, '', 'de'], available)).toBe('de')
  })

  it('falls back to English', () => {
    expect(pickLocale([], available)).toBe('en')
    expect(pickLocale(['ja', 'zh-Hant', undefined], available)).toBe('en')
  })

  it('never picks a language whose pack is not loaded', () => {
    expect(pickLocale(['de-DE'], { en })).toBe('en')
  })
})

describe('language packs', () => {
  it('English is built in; a pack adds its language, as its script does', () => {
    expect(Object.keys(languages())).toEqual(['en'])
    addLanguage('de', de)
    addLanguage('fr', { ...en, ready: 'Scannez avec l’app' })
    expect(languages()).toEqual({ en, de, fr: expect.objectContaining({ ready: 'Scannez avec l’app' }) })
  })
})

/** Every pack in src/languages/, by its two-letter code, as the build finds them. */
const packs: Record<string, Texts> = Object.fromEntries(
  await Promise.all(
    (await readdir(join(dirname(fileURLToPath(import.meta.url)), '../src/languages')))
      .filter((name) => /^[a-z]{2}\.ts$/.test(name))
      .map((name) => name.slice(0, 2))
      .map(async (code) => [code, ((await import(`../src/languages/${code}.ts`)) as { texts: Texts }).texts] as const),
  ),
)

describe('texts', () => {
  it('has packs for German, French, Spanish, Italian, Dutch and Polish', () => {
    expect(Object.keys(packs).sort()).toEqual(['de', 'es', 'fr', 'it', 'nl', 'pl'])
  })

  it.each(Object.entries(packs))('%s has every English key and nothing else, each one translated', (_, texts) => {
    expect(Object.keys(texts).sort()).toEqual(Object.keys(en).sort())
    for (const [key, text] of Object.entries(texts)) {
      expect(text.trim(), key).not.toBe('')
      expect(text, key).not.toBe(en[key as keyof Texts])
    }
  })

  it.each(Object.entries(packs))('%s keeps the shape of each English text: the countdown prefix ends in a space, what is under way ends in …', (_, texts) => {
    // The countdown's clock follows `left` directly: "Expires in 4:59".
    expect(texts.left).toMatch(/\S $/)
    for (const [key, text] of Object.entries(en)) expect(texts[key as keyof Texts].endsWith('…'), key).toBe(text.endsWith('…'))
  })

  it('English has no empty text', () => {
    for (const text of Object.values(en)) expect(text.trim()).not.toBe('')
  })

  it('speaks German in German', () => {
    expect(de.ready).toBe('Mit der App scannen')
    expect(de.tap).toBe('Tippen, um die App zu öffnen')
    expect(de.ready).not.toBe(en.ready)
  })
})
