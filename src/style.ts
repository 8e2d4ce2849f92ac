// The default look, adopted as a constructable stylesheet: a strict Content-Security-Policy
// (no 'unsafe-inline' for styles) blocks <style> injection and style attributes, but not
// stylesheets built through the CSSOM. It only lays the widget out: text, colours and frame
// come from the page, so the widget suits light and dark pages alike; --sa-size sizes the code.
const CSS =
  '.sa{display:inline-grid;justify-items:center}.sa div{width:var(--sa-size,200px);height:var(--sa-size,200px);background:#8882}' +
  // Page resets such as `img{display:block}` would otherwise beat the browser's own [hidden] rule.
  '.sa img{display:block;width:100%}.sa [hidden]{display:none!important}'

let adopted: boolean | undefined

/** Adds the default stylesheet to the document, once. Without constructable sheets the widget still works, unstyled. */
export function adoptStyles(): void {
  if (adopted) return
  adopted = true
  try {
    const sheet = new CSSStyleSheet()
    sheet.replaceSync(CSS)
    document.adoptedStyleSheets.push(sheet)
  } catch {
    // Unstyled is better than broken.
  }
}
