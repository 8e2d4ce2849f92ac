import { describe, expect, it } from 'vitest'
import { pickLocale, textsFor } from '../src/i18n'

describe('pickLocale', () => {
  it('takes the first candidate it has texts for, by its language subtag', () => {
    expect(pickLocale(['fr-CA', 'de-AT', 'en'])).toBe('de')
    expect(pickLocale(['EN-gb', 'de'])).toBe('en')
  })

  it('skips empty and missing candidates', () => {
    expect(pickLocale([undefined, null, '', 'de'])).toBe('de')
  })

  it('falls back to English', () => {
    expect(pickLocale([])).toBe('en')
    expect(pickLocale(['ja', 'zh-Hant', undefined])).toBe('en')
  })
})

describe('texts', () => {
  it('has English and German with the same keys, none empty', () => {
    const { en, de } = textsFor
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort())
    for (const texts of [en, de]) for (const text of Object.values(texts)) expect(text.trim()).not.toBe('')
  })

  it('speaks German in German', () => {
    expect(textsFor.de.ready).toBe('Mit der App scannen')
    expect(textsFor.de.ready).not.toBe(textsFor.en.ready)
  })
})
