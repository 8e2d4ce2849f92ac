// The default look, adopted as a constructable stylesheet: a strict Content-Security-Policy
// (no 'unsafe-inline' for styles) blocks <style> injection and style attributes, but not
// stylesheets built through the CSSOM. Text and background inherit from the page, so the
// widget suits light and dark pages alike; --sa-size sets the size of the code.
const CSS =
  '.sa{display:inline-grid;padding:0 16px;border:1px solid #8888;text-align:center}' +
  '.sa div{width:var(--sa-size,200px);aspect-ratio:1;margin-top:16px;background:#8882}.sa img{width:100%}' +
  // Page resets such as `img{display:block}` would otherwise beat the browser's own [hidden] rule.
  '.sa [hidden]{display:none!important}'

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
