// The React page as the demo serves it to end-to-end tests (e2e/react.spec.ts, and the engines'
// suite): e2e/react-page.tsx bundled by esbuild from the built package, as an integrator's
// bundler would, and the page around it.
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { type ExtraPage, html, EVENT_LOG, renderPage } from 'service-auth-demo'

const root = fileURLToPath(new URL('..', import.meta.url))

/** The page's script: React's development build, as StrictMode's double mount only happens there. */
async function bundle(): Promise<string> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['e2e/react-page.tsx'],
    bundle: true,
    write: false,
    format: 'iife',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
    // Not the repository's tsconfig, whose paths lead `service-auth` to the sources: the package
    // resolves by its own name to dist/, as it does once installed.
    tsconfigRaw: {},
    logLevel: 'silent',
  })
  return result.outputFiles[0]!.text
}

/** `/react` and its script, for `startDemo({pages})`. The demo's event log comes first, as on its own pages. */
export async function reactPages(): Promise<Record<string, ExtraPage>> {
  const script = await bundle()
  return {
    '/react': ({ serviceUrl, apiKey }) =>
      renderPage({
        title: 'React',
        lang: 'en',
        body: html`<div id="root" data-api="${serviceUrl}" data-key="${apiKey}"></div>`,
        stylesheets: [{ href: '/service-auth.css' }],
        scripts: [EVENT_LOG, { src: '/react-page.js' }],
      }),
    '/react-page.js': () => script,
  }
}
