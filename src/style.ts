/**
 * Links the widget's stylesheet, which the CDN serves beside the script under the same name
 * (service-auth-1.0.0.js → service-auth-1.0.0.css), with its SRI hash baked in at build time:
 * the script's own integrity would mean little if the CDN could swap the styles.
 * Prepended, so the page's own rules win ties.
 */
export function linkStylesheet(scriptUrl: string): void {
  const link = document.createElement('link')
  link.rel = 'stylesheet'
  link.crossOrigin = 'anonymous'
  link.integrity = __STYLE_INTEGRITY__
  link.href = scriptUrl.replace(/\.js(?=[?#]|$)/, '.css')
  document.head.prepend(link)
}
