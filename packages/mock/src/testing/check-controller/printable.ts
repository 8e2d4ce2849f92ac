// Text the controller chose (a problem's detail, a location, a cookie's name), made safe to print:
// the report goes to the developer's terminal, where an escape sequence in an answer could clear
// the screen or write a verdict of its own ("ALL CHECKS PASSED"). Every character a terminal or
// an editor acts on is written as its \u escape instead.

// The controls (C0, DEL and C1, whose U+009B is an 8-bit CSI), the line and paragraph separators,
// and the bidirectional marks, embeddings, overrides and isolates, which reorder what is shown.
const UNPRINTABLE = /[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu

const escaped = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`

/** The text with every unprintable character as its `\u` escape, unquoted: for names, such as a cookie's. */
export const printable = (text: string): string => text.replace(UNPRINTABLE, escaped)

/** The text as a quoted string literal, nothing in it unprintable: for what the controller wrote freely, such as a problem's detail. */
export const quoted = (text: string): string => JSON.stringify(text).replace(UNPRINTABLE, escaped)
