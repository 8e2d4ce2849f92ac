// The two schemes the helper sends requests to, and lets startSession send the browser to.
const HTTP = new Set(['http:', 'https:'])

/** Whether a parsed URL is http or https. */
export const isHttp = (url: URL): boolean => HTTP.has(url.protocol)
