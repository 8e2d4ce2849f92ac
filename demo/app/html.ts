// Server-rendered HTML where escaping is the default: every value interpolated into an `html`
// template is escaped unless it is itself an `html` result. Page values come from query
// strings and token claims, so forgetting to escape one must not be possible.

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char]!)

/** Markup that is already safe; only `html` and `attributes` make one. */
export class SafeHtml {
  constructor(readonly text: string) {}

  toString(): string {
    return this.text
  }
}

/** Interpolations: SafeHtml as is, arrays joined, null/undefined/false as nothing, the rest escaped. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let text = strings[0]!
  values.forEach((value, index) => {
    text += render(value) + strings[index + 1]!
  })
  return new SafeHtml(text)
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.text
  if (Array.isArray(value)) return value.map(render).join('')
  if (value === undefined || value === null || value === false) return ''
  return escapeHtml(String(value))
}

/**
 * ` name="value"` for each entry, in order; `true` renders a bare attribute and undefined
 * leaves it out. Names come from this code, never from a request.
 */
export function attributes(entries: Record<string, string | true | undefined>): SafeHtml {
  let text = ''
  for (const [name, value] of Object.entries(entries)) {
    if (value === undefined) continue
    text += value === true ? ` ${name}` : ` ${name}="${escapeHtml(value)}"`
  }
  return new SafeHtml(text)
}
