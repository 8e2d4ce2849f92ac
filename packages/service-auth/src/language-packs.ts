// The packs' side of the languages: what a pack script does as it loads (adds itself to the
// page's packs), and the choice of a widget's pack among those loaded. The pack scripts carry
// this, not the main script: a page without packs speaks English whatever it asks for, so the
// choosing costs it nothing. (Nothing here may import English: each pack would carry it.)
import type { Pack } from './i18n.js'

/**
 * All that a language pack's script (service-auth.<code>.js) does: adds `pack` to the page's
 * packs, under its own tag and every other it answers to, and brings the chooser if no pack has
 * yet. The build writes that script's entry (see build.mjs).
 */
export const addLanguage = (pack: Pack): void => {
  // globalThis, not self: a server render imports the pack too (`import 'service-auth/languages/de.js'`
  // in a page's module), and Node has no self. In a browser both name the window the widget reads.
  const packs = (globalThis.ServiceAuthTexts ||= {})
  for (const tag of [pack.lang, ...(pack.also || [])]) packs[tag.toLowerCase()] = pack
  globalThis.ServiceAuthPickLanguage ||= pickLanguage
}

/**
 * The pack a widget on `el` speaks: among English and the packs loaded, the first that one of
 * these asks for: the `locale` option or attribute, the element's language (its own `lang`, or
 * the nearest around it), `<html lang>`, the browser's languages. Each by BCP 47's lookup
 * (RFC 4647, 3.4): the tag whole, then without its last subtag, and so on (`zh-Hant-TW`,
 * `zh-Hant`, `zh`), case aside. Undefined for English, which is built in.
 */
export const pickLanguage = (el: Element, locale?: string): Pack | undefined => {
  const packs = globalThis.ServiceAuthTexts || {}
  const asked = [locale, el.closest('[lang]')?.getAttribute('lang'), document.documentElement.lang, ...navigator.languages]
  for (const candidate of asked) {
    for (let tag = String(candidate ?? '').toLowerCase(); tag; tag = tag.replace(/-?[^-]*$/, '')) {
      // English first: a page in English gets English, whichever packs it loaded.
      if (tag == 'en') return
      // Own keys only: `constructor` is not a language.
      if (Object.hasOwn(packs, tag)) return packs[tag]
    }
  }
}
