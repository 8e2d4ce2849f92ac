// The widget set-ups the index links to: what each one is called and what it shows, so the
// /fixture page built from one can say so in its title and first line.

export interface SetUp {
  /** The /fixture query, without the `?`. */
  query: string
  /** The index's link text, and the page's title and heading. */
  label: string
  /** One line: what the set-up is for. */
  purpose: string
}

/**
 * The languages the index links, by code, as it names them: a few of the packs in
 * src/languages/, among them one written right to left and one in CJK. Any other pack is one
 * address away (`/fixture?locale=sv&lang=sv`).
 */
export const LANGUAGES: Record<string, string> = {
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  it: 'Italian',
  nl: 'Dutch',
  pl: 'Polish',
  ar: 'Arabic (right to left)',
  ja: 'Japanese',
}

/** A set-up per language: the page's language and data-service-locale both say it. */
function languages(): SetUp[] {
  return Object.entries(LANGUAGES).map(([code, label]) => ({
    query: `locale=${code}&lang=${code}`,
    label,
    purpose: `The widget in ${label}: the page’s language and data-service-locale both say ${code}.`,
  }))
}

export const SET_UPS: SetUp[] = [
  {
    query: 'image-data=false',
    label: 'The code loaded from its URL (data-service-image-data="false")',
    purpose: 'The widget loads the code as an image from the service instead of taking it inline from the challenge.',
  },
  ...languages(),
  { query: 'count=2', label: 'Two widgets on one page', purpose: 'Each widget shows a code of its own, and either one signs the person in.' },
  {
    query: 'late=1',
    label: 'A single-page app that adds and removes the widget',
    purpose: 'The buttons add and remove the widget after the page has loaded, as a single-page app does; the embed notices both by itself.',
  },
  {
    query: 'csp=strict&sri=1',
    label: 'A strict Content-Security-Policy, and the script with integrity',
    purpose: 'No inline script or style, Trusted Types enforced, and the script pinned by its integrity hash: the widget works without a single violation.',
  },
  {
    query: 'theme=dark&style=pure',
    label: 'The dark theme, pure style (the code only)',
    purpose: 'The dark theme, and the pure style: the code alone, with no frame around it.',
  },
  {
    query: 'app-url=serviceauth%3A%2F%2Fchallenge%2F%7Bid%7D',
    label: 'On a touch device, the code links to the app',
    purpose: 'On a phone or tablet the code is also a link that opens the app (data-service-app-url).',
  },
]

const normalized = (query: URLSearchParams) =>
  [...query]
    .map(([name, value]) => `${name}=${value}`)
    .sort()
    .join('&')

/** The listed set-up this query asks for, whatever the order of its parameters. */
export function setUpFor(query: URLSearchParams): SetUp | undefined {
  const wanted = normalized(query)
  return SET_UPS.find((setUp) => normalized(new URLSearchParams(setUp.query)) === wanted)
}
