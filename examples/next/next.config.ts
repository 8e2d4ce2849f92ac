// Next.js (app router) with service-auth: the login page with the <ServiceAuth> component, the
// controller as a route handler, a page only a signed-in user sees.
//
//   npm run build && SERVICE_URL=http://127.0.0.1:8081 SERVICE_KEY=… SERVICE_SECRET=… npx next dev examples/next
//
// In this repository `service-auth` is the package itself: Node and the bundler find it by its
// own name through its package.json exports, so the example runs the built dist/, as an installed
// copy would. In your app: npm install service-auth.
import { fileURLToPath } from 'node:url'
import type { NextConfig } from 'next'

// The repository's root, where node_modules is (your app does not need this).
const root = fileURLToPath(new URL('../..', import.meta.url))

const config: NextConfig = {
  turbopack: { root },
  outputFileTracingRoot: root,
  // This repository type-checks the example with its own `npm run typecheck` (TypeScript 7, which
  // Next.js cannot drive); in your app, leave Next.js to check it.
  typescript: { ignoreBuildErrors: true },
  // Every page refuses to be framed by another site, which could lay it under buttons of its own
  // (clickjacking); X-Frame-Options is for browsers older than frame-ancestors. No <base> or
  // plugins either.
  async headers() {
    const headers = [
      { key: 'Content-Security-Policy', value: "frame-ancestors 'none'; base-uri 'none'; object-src 'none'" },
      { key: 'X-Frame-Options', value: 'DENY' },
    ]
    return [{ source: '/:path*', headers }]
  },
}

export default config
