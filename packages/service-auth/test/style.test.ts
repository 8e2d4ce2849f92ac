// @vitest-environment node
// The stylesheet's promise to right-to-left languages: nothing in it is one-sided, so a widget with
// dir="rtl" is the mirror image of a left-to-right one (the gallery's Arabic screenshot shows it).
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'

const css = await readFile(new URL('../src/style.css', import.meta.url), 'utf8')
/** The declarations, without the comments (which may well say "left" and "right"). */
const rules = css.replace(/\/\*[\s\S]*?\*\//g, '')

describe('style.css', () => {
  it('names no left or right: its spacing is symmetric or logical, so right to left mirrors it', () => {
    expect(rules).toContain('padding: 16px;')
    expect(rules).not.toMatch(/(^|[\s;{])(margin|padding|border|inset)-(left|right)\b/m)
    expect(rules).not.toMatch(/(^|[\s;{])(left|right)\s*:/m)
    expect(rules).not.toMatch(/(text-align|float|clear)\s*:\s*(left|right)\b/)
    expect(rules).not.toMatch(/border-(top|bottom)-(left|right)-radius/)
    // Four values (top right bottom left) would be one-sided when the two sides differ.
    for (const [, property, values] of rules.matchAll(/(margin|padding|inset|border-width)\s*:\s*([^;]+);/g)) {
      const sides = values!.trim().split(/\s+/)
      if (sides.length == 4) expect(sides[1], `${property}: ${values}`).toBe(sides[3])
    }
  })
})
