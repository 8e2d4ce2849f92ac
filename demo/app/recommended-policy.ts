// The Content-Security-Policy README.md recommends for a login page, directive for directive:
// test/readme.test.ts holds the README's block to this list, and the strict fixture
// (`/fixture?csp=strict`) is sent with it, so the policy the end-to-end tests sign in under is
// the one integrators copy.

/** The example origins the README writes: the CDN the embed comes from, and the service. */
export const README_CDN = 'https://cdn.service-auth.example'
export const README_API = 'https://api.service-auth.example'

/** The README's policy, with the embed's files served from `cdn` and the service at `api`. */
export function recommendedPolicy(cdn = README_CDN, api = README_API): string[] {
  return [
    "default-src 'none'",
    `script-src ${cdn}`,
    `style-src 'self' ${cdn}`,
    `img-src 'self' data: ${api}`,
    `connect-src 'self' ${api}`,
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
    "require-trusted-types-for 'script'",
    "trusted-types 'none'",
  ]
}
