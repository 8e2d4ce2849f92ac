// Builds the embed: the CDN IIFE (plus a versioned copy), the ESM build, types and source maps,
// then writes dist/manifest.json with each file's sizes and SRI hash, and prints the table.
import { build as esbuild } from 'esbuild'
import { minify } from 'terser'
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, readFile, readdir, rm, writeFile, copyFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, gzipSync, constants } from 'node:zlib'

const root = fileURLToPath(new URL('.', import.meta.url))
const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'))
// The workspace hoists TypeScript to the repository's node_modules; its compiler is run as a
// program (TypeScript 7 has no JavaScript API).
const tsc = join(createRequire(import.meta.url).resolve('typescript/package.json'), '../bin/tsc')

/**
 * The default service base URL baked into both bundles, which `data-service-api` (the `api`
 * option) overrides per element: SERVICE_API_URL, which the CDN build of a hosted service sets
 * to its own. Without it there is none (''), and a widget without `data-service-api` is a config
 * error that names it, shown at once. Every build used to bake in a placeholder instead
 * (https://api.service-auth.example, the README's example), so such a widget asked a host that
 * does not exist and showed "Reconnecting…" for good. The npm package is built without one: it
 * serves whatever service its integrator names.
 */
const defaultApi = () => process.env.SERVICE_API_URL || ''

/**
 * The IIFE's size budget, gzipped (level 9, no file name in the header): the one definition, which
 * the build test, the bench and dist/manifest.json all read. Issue 19 set 3,584 B for readable
 * source built with plain minification; issues 21 and 22 brought it to 4,096 B. Issue 33 (the
 * state machine as code, one failure type, no failure shown as success, failures that name their
 * cause, one options table, the page's own default service) measured 5,304 B with the same
 * minification, where main measured 4,070 B: each feature's bytes, measured by taking it out, are
 * in BENCHMARKS.md. Bytes taken out of the code since, keeping every feature and message meaning
 * (BENCHMARKS.md lists each cut), bring it to 5,230 B: a readable core with these features does
 * not fit in 4,096 B. An answer's body read by its own reader rather than a counting stream piped
 * into a Response (the first code's task about a millisecond sooner, in traces) costs 25 B of
 * them back, and naming an answer out of time mid-body as the network's 2 B: 5,259 B. Issue
 * 33's last two targets cost 104 B more. The observer (item 8: its work on the bench's busy page
 * 0.469 ms/s before, 0.186 ms/s in the full run after): a ResizeObserver that hears of removed
 * widgets, so that a page's changes no longer sweep them, 23 B, and for the widgets it cannot hear
 * of (no box to lose: hidden, `display: contents`), a sweep at every change once one is seen, 47 B.
 * Start-up (item 9): a first code shown before any "Loading…" is laid out, 4 to 6 ms sooner in
 * A/B runs, 34 B, and its status region in place, empty, meanwhile, so that screen readers
 * announce that code rather than find it, 7 B: 5,370 B. A review's findings cost 66 B more
 * (each measured by taking it out): a widget whose element is out of the page sends nothing and
 * hands no token over, and the CDN build's sweep runs then (a removed widget polled on, and could
 * sign the person in, in a frame the browser does not render, where no observer runs), 37 B; a
 * replaced code shown with nothing said again, 11 B; "Sign-in failed" at once after a refusal,
 * not "Signing in…" for the whole backoff, 7 B; a widget the page stopped not started again by
 * the back/forward cache, 7 B; the document's own origin (`self.origin`, right in an about:srcdoc
 * frame), -1 B: 5,436 B. Then 21 B: no part of the token in the console either (any run of 16
 * letters, digits, '_' or '-' in the controller's reason reads "…"), 6 B; a markup error's
 * listener finds the widget with get(), and one it destroys stays destroyed (the handle is the
 * page's before the widget starts), 13 B; a JSON type in any case, 2 B: 5,457 B. The view's
 * status looked up by its key alone (no key for idle or '' reads an empty line), -9 B: 5,448 B.
 * A new user's review found three console lines that did not name the fix, 68 B: a controller's
 * reason cut into pieces shorter than 16 (each piece of 4 or more found in the token reads "…"),
 * 14 B; a controller on another origin named as such, not "missing or invalid" (an API
 * subdomain is a common first try), 27 B; the service's URLs not under data-service-api said so
 * with the base they must be under (a page that says localhost to a service at 127.0.0.1 saw
 * "pollingUrl is missing or invalid" and "Reconnecting…" for good), 27 B: 5,516 B. Start-up
 * (item 9) again: a first code painted alone, its words in the task after that frame (its
 * answer → painted 1.3 to 2.7 ms sooner in A/B runs), 48 B: 5,564 B. A status URL not under
 * data-service-api stops for good rather than retrying (the markup's fault), its bytes from
 * send()'s default refusal no longer spelt out twice, -1 B: 5,563 B. No answer from the service
 * said, with its URL and the attribute that names it (a second review found the wrong port said
 * nothing of ours), its bytes mostly from the controller's no-answer line said shorter, 3 B:
 * 5,566 B. Focus on the app link stays in the widget when the link goes (an accessibility review
 * found it fell to the page's top as a code was replaced or signed), 15 B, from the console: the
 * no-location warning without "so the page stays", the no-answer line without "instead": 5,565 B.
 * The budget proposed is
 * 5,568 B (5.4375 KiB), the next multiple of 64 above 5,516 B.
 */
export const IIFE_BUDGET = 5568

/**
 * The element's classic script's budget, gzipped: the element alone, on top of the CDN script
 * (service-auth-element.js measured 927 B when issue 29 added it).
 */
export const ELEMENT_BUDGET = 1024

/** terser's options for the classic scripts' second pass (see build below). */
const SQUEEZE = {
  ecma: 2020,
  // toplevel: the script's only top-level statement is esbuild's IIFE, whose names are its own.
  compress: { passes: 3, toplevel: true },
  mangle: { toplevel: true },
  // \u2026 rather than the UTF-8 bytes of …, ä, ü: a few more bytes, but fewer gzipped, as
  // bytes outside ASCII are rare symbols that cost more to code than the escapes' letters.
  // (For a pack it also keeps its script right on a page that is not in UTF-8.)
  format: { ascii_only: true },
}

/** The browsers the embed and its stylesheet support (README: Browser support). */
const BROWSERS = ['chrome116', 'firefox124', 'safari17.4', 'edge116']

export async function build({ outdir = join(root, 'dist'), api = defaultApi(), types = true } = {}) {
  const codes = await languagePacks()
  await rm(outdir, { recursive: true, force: true })
  await mkdir(outdir, { recursive: true })
  const cssPath = join(outdir, 'service-auth.css')
  await esbuild({ entryPoints: [join(root, 'src/style.css')], outfile: cssPath, minify: true, target: BROWSERS, logLevel: 'warning' })
  const common = {
    bundle: true,
    // External: the map is still emitted, but the comment pointing at it would count against the size budget.
    sourcemap: 'external',
    target: BROWSERS,
    define: {
      __API__: JSON.stringify(api),
      __VERSION__: JSON.stringify(version),
    },
    legalComments: 'none',
    logLevel: 'warning',
  }
  await Promise.all([
    esbuild({
      ...common,
      entryPoints: [join(root, 'src/auto.ts')],
      outfile: join(outdir, 'service-auth.js'),
      format: 'iife',
      // Local names are left to terser's mangler below, which does better on gzip when esbuild has
      // not renamed them first. Property names are never renamed, in any build.
      minifySyntax: true,
      minifyWhitespace: true,
      // No "use strict" prologue: the code does nothing that sloppy mode treats differently. (The
      // ESM build is strict by nature.)
      tsconfigRaw: { compilerOptions: { alwaysStrict: false } },
    }),
    // Not minified: integrators' bundlers minify, and their source maps then reach readable code.
    esbuild({ ...common, entryPoints: [join(root, 'src/index.ts')], outfile: join(outdir, 'service-auth.mjs'), format: 'esm' }),
    // A language pack per file in src/languages/: service-auth.de.js and so on, each a classic
    // script that adds its pack for the main script to find (and, in a bundler, a module imported
    // for that side effect). Apart from the main script, so that a language costs it nothing; and
    // service-auth.languages.js, every pack in one file, for a page that serves many languages.
    ...[...codes.map((code) => [code, [code]]), [ALL_LANGUAGES, codes]].map(([name, included]) =>
      esbuild({
        stdin: {
          contents:
            "import { addLanguage } from './language-packs.js'\n" +
            included.map((code, i) => `import { pack as pack${i} } from './languages/${code}.js'\naddLanguage(pack${i})\n`).join(''),
          resolveDir: join(root, 'src'),
          sourcefile: `language-pack-${name}.ts`,
        },
        outfile: join(outdir, `service-auth.${name}.js`),
        bundle: true,
        minify: true,
        format: 'iife',
        target: BROWSERS,
        legalComments: 'none',
        logLevel: 'warning',
      }),
    ),
    // The Node helper for integrators' controllers (the `service-auth/server` subpath); jose stays a dependency.
    esbuild({
      entryPoints: [join(root, 'src/server/index.ts')],
      outfile: join(outdir, 'server.mjs'),
      bundle: true,
      // Not linked: the package ships no maps, and the bundle is not minified anyway.
      sourcemap: 'external',
      platform: 'node',
      target: 'node20',
      format: 'esm',
      external: ['jose'],
      logLevel: 'warning',
    }),
    buildReact(outdir),
    ...buildElement(outdir, common),
    buildVue(outdir),
  ])
  // A second pass with terser's multi-pass compressor finds a few percent esbuild leaves. Only
  // options that cannot change behaviour: no unsafe*, pure_getters or booleans_as_integers, and
  // no property mangling. The source map is carried through.
  const iifePath = join(outdir, 'service-auth.js')
  const squeezed = await minify(
    { 'service-auth.js': await readFile(iifePath, 'utf8') },
    { ...SQUEEZE, sourceMap: { content: await readFile(iifePath + '.map', 'utf8'), filename: 'service-auth.js' } },
  )
  await writeFile(iifePath, squeezed.code)
  await writeFile(iifePath + '.map', squeezed.map)
  // The language packs likewise (they have no maps): each carries the few lines that choose a
  // widget's language, which terser takes some 5 % off. Not toplevel: terser would unwrap their
  // IIFE and leave its names as the page's globals.
  for (const name of [...codes, ALL_LANGUAGES]) {
    const path = join(outdir, `service-auth.${name}.js`)
    await writeFile(path, (await minify(await readFile(path, 'utf8'), { ...SQUEEZE, compress: { passes: 3 }, mangle: true })).code)
  }
  // The CDN copy is immutable per version: same bytes, same SRI hash.
  const versioned = `service-auth-${version}.js`
  await copyFile(iifePath, join(outdir, versioned))
  await copyFile(iifePath + '.map', join(outdir, versioned + '.map'))
  await copyFile(join(outdir, 'service-auth-element.js'), join(outdir, `service-auth-element-${version}.js`))
  await copyFile(cssPath, join(outdir, versioned.replace(/js$/, 'css')))
  for (const name of [...codes, ALL_LANGUAGES]) await copyFile(join(outdir, `service-auth.${name}.js`), join(outdir, `service-auth-${version}.${name}.js`))
  if (types) {
    execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', join(outdir, 'types')], { stdio: 'inherit' })
    // `import 'service-auth/style.css'` needs a declaration to type-check (TS2882 without one).
    await writeFile(join(outdir, 'types/style.css.d.ts'), "// The widget's stylesheet: imported for its side effect, it exports nothing.\nexport {}\n")
    // `import 'service-auth/languages/de.js'` (and `all.js`) likewise: imported for its side effect.
    await writeFile(
      join(outdir, 'types/language-pack.d.ts'),
      '// A language pack, or all of them: imported for its side effect (it adds its packs), it exports nothing.\nexport {}\n',
    )
  }
  return writeManifest(outdir, await readLanguages(codes))
}

/**
 * The React component (the `service-auth/react` subpath), ES module only: the CDN script never
 * carries it. React and the ES module stay imports, so a page has one copy of each, and with it
 * one record of the mounted widgets. Not minified, nor its properties renamed (it passes options
 * to mount() by name): integrators' bundlers minify. esbuild keeps the entry's 'use client' at the
 * top, which React Server Components bundlers (Next.js) need to render it on the client.
 */
const buildReact = (outdir) =>
  esbuild({
    entryPoints: [join(root, 'src/react.tsx')],
    outfile: join(outdir, 'react.mjs'),
    bundle: true,
    sourcemap: 'external',
    format: 'esm',
    target: BROWSERS,
    jsx: 'automatic',
    external: ['react', 'react/jsx-runtime', 'service-auth'],
    legalComments: 'none',
    logLevel: 'warning',
  })

/**
 * The custom element, <service-auth>: `dist/element.mjs` for the ES module (the subpath
 * `service-auth/element`, and the same file for `service-auth/element/react`, `/vue`, `/svelte` and
 * `/solid`, which add types only), importing the module by its name so that a page has one
 * record of the mounted widgets; and `service-auth-element.js`, a classic script for CDN pages
 * that adds the element to the CDN script, using its global (`ServiceAuth.mount`), so that it
 * costs only its own bytes. Neither is part of service-auth.js, whose budget stays its own.
 */
const buildElement = (outdir, common) => [
  esbuild({ ...common, entryPoints: [join(root, 'src/element.ts')], outfile: join(outdir, 'element.mjs'), format: 'esm', external: ['service-auth'] }),
  esbuild({
    ...common,
    entryPoints: [join(root, 'src/element.ts')],
    outfile: join(outdir, 'service-auth-element.js'),
    format: 'iife',
    minify: true,
    plugins: [
      {
        // `service-auth` is the CDN script's global here, read as the element is defined (the
        // options table) and when it connects, so the page must run service-auth.js first (both
        // `defer`, in that order); if it did not, the console says so.
        name: 'cdn-global',
        setup(build) {
          build.onResolve({ filter: /^service-auth$/ }, () => ({ path: 'global', namespace: 'cdn-global' }))
          build.onLoad({ filter: /.*/, namespace: 'cdn-global' }, () => ({
            contents:
              "const api = () => { if (!self.ServiceAuth) throw new Error('service-auth-element.js: load service-auth.js before it'); return self.ServiceAuth }\n" +
              'export const mount = (el, options) => api().mount(el, options)\nexport const get = (el) => self.ServiceAuth?.get(el)\n' +
              // The options table, which the element's attributes derive from, as it defines itself.
              'export const OPTIONS = api().OPTIONS\n',
            loader: 'js',
          }))
        },
      },
    ],
  }),
]

/**
 * The Vue component (the `service-auth/vue` subpath), ES module only, as the React one: Vue and
 * the ES module stay imports.
 */
const buildVue = (outdir) =>
  esbuild({
    entryPoints: [join(root, 'src/vue.ts')],
    outfile: join(outdir, 'vue.mjs'),
    bundle: true,
    sourcemap: 'external',
    format: 'esm',
    target: BROWSERS,
    external: ['vue', 'service-auth'],
    legalComments: 'none',
    logLevel: 'warning',
  })

/** The file of every pack at once: service-auth.languages.js (`service-auth/languages/all.js` for the ES module). */
export const ALL_LANGUAGES = 'languages'

/** The codes of the language packs (`de`, `pt-BR`), from the files in src/languages/: each names its pack. */
export const languagePacks = async () =>
  (await readdir(join(root, 'src/languages'))).flatMap((name) => /^([a-z]{2}(-[A-Z]{2})?)\.ts$/.exec(name)?.[1] ?? []).sort()

/**
 * What the manifest says of each pack, read from its source: its name in English, its BCP 47
 * tag, its direction and every tag it answers to (what addLanguage registers it under).
 */
async function readLanguages(codes) {
  const { outputFiles } = await esbuild({
    stdin: {
      contents: codes.map((code, i) => `import * as p${i} from './languages/${code}.js'`).join('\n') + `\nexport default [${codes.map((_, i) => `p${i}`)}]\n`,
      resolveDir: join(root, 'src'),
      loader: 'ts',
    },
    bundle: true,
    format: 'esm',
    write: false,
    logLevel: 'warning',
  })
  const sources = (await import('data:text/javascript;base64,' + Buffer.from(outputFiles[0].text).toString('base64'))).default
  return Object.fromEntries(
    codes.map((code, i) => {
      const { name, pack } = sources[i]
      const tags = [...new Set([pack.lang, ...(pack.also || [])].map((tag) => tag.toLowerCase()))]
      return [code, { name, lang: pack.lang, dir: pack.dir || 'ltr', tags, file: `service-auth.${code}.js` }]
    }),
  )
}

/**
 * The README's table of language packs, from the manifest: each pack's name, code, pinned file
 * and integrity hash. `node build.mjs --readme` writes it, and a test holds the README to it.
 */
export const languageTable = (manifest) =>
  [
    '| Language | Code | Pack | `integrity` |',
    '|---|---|---|---|',
    ...Object.entries(manifest.languages).map(([code, { name, dir }]) => {
      const pinned = `service-auth-${manifest.version}.${code}.js`
      return `| ${name}${dir == 'rtl' ? ' (right to left)' : ''} | \`${code}\` | \`${pinned}\` | \`${manifest.files[pinned].integrity}\` |`
    }),
  ].join('\n')

const sri = (bytes, algorithm = 'sha384') => algorithm + '-' + createHash(algorithm).update(bytes).digest('base64')

async function writeManifest(outdir, languages) {
  const manifest = { version, budget: { 'service-auth.js': { gzip: IIFE_BUDGET }, 'service-auth-element.js': { gzip: ELEMENT_BUDGET } }, files: {}, languages }
  for (const name of (await readdir(outdir)).sort()) {
    if (!/\.(m?js|css)$/.test(name)) continue
    const bytes = await readFile(join(outdir, name))
    manifest.files[name] = {
      bytes: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
      integrity: sri(bytes),
    }
  }
  await writeFile(join(outdir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
  return manifest
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const manifest = await build()
  for (const [name, file] of Object.entries(manifest.files)) {
    console.log(
      `${name.padEnd(26)} ${String(file.bytes).padStart(6)} B  gzip ${String(file.gzip).padStart(5)} B  brotli ${String(file.brotli).padStart(5)} B  ${file.integrity}`,
    )
  }
  // The pinned tags in the README: the script, the stylesheet, the German pack of its example and
  // every pack at once.
  const pinned = ['js', 'css', 'de.js', `${ALL_LANGUAGES}.js`].map((ext) => `service-auth-${manifest.version}.${ext}`)
  for (const name of pinned) console.log(`Pinned in README.md: integrity="${manifest.files[name].integrity}" for ${name}`)
  // `node build.mjs --readme` writes those hashes into the package README's pinned tags, and its
  // table of language packs (a test checks both). That README, the one npm shows, is where they
  // are written for integrators: the repository's README links to it rather than repeat them. The
  // Python and PHP examples' login pages pin the script and stylesheet too, being pages to copy
  // (test/examples/pinned.test.ts holds them to the build); the published package has no examples.
  const pin = (text, names) => {
    for (const name of names) {
      const tag = new RegExp(`(${name.replace(/[.]/g, '\\.')}"\\s+integrity=")sha384-[^"]*`, 'g')
      text = text.replace(tag, `$1${manifest.files[name].integrity}`)
    }
    return text
  }
  if (process.argv.includes('--readme')) {
    for (const example of ['examples/python/app.py', 'examples/php/app.php']) {
      const path = join(root, '../..', example)
      const text = await readFile(path, 'utf8').catch((error) => {
        if (error.code !== 'ENOENT') throw error
      })
      if (text !== undefined) await writeFile(path, pin(text, pinned.slice(0, 2)))
    }
    const readmePath = join(root, 'README.md')
    let readme = pin(await readFile(readmePath, 'utf8'), pinned)
    readme = readme.replace(/\| Language \| Code \| Pack \|[^\n]*\n(\|[^\n]*\n)*/, languageTable(manifest) + '\n')
    await writeFile(readmePath, readme)
  }
}
