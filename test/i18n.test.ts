import { afterEach, describe, expect, it } from 'vitest'
import { addLanguage, en, languages, pickLocale } from '../src/i18n'
import { texts as de } from '../src/languages/de'

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

describe('texts', () => {
  it('has English and German with the same keys, none empty', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort())
    for (const texts of [en, de]) for (const text of Object.values(texts)) expect(text.trim()).not.toBe('')
  })

  it('speaks German in German', () => {
    expect(de.ready).toBe('Mit der App scannen')
    expect(de.tap).toBe('Tippen, um die App zu öffnen')
    expect(de.ready).not.toBe(en.ready)
  })
})
