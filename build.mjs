// Builds the embed: the CDN IIFE (plus a versioned copy), the ESM build, types and source maps,
// then writes dist/manifest.json with each file's sizes and SRI hash, and prints the table.
import { build as esbuild } from 'esbuild'
import { minify } from 'terser'
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdir, readFile, readdir, rm, writeFile, copyFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, gzipSync, constants } from 'node:zlib'

const root = fileURLToPath(new URL('.', import.meta.url))
const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'))

/** The default service base URL baked into the bundle; `data-service-api` overrides it per element. */
export const DEFAULT_API = 'https://api.service-auth.example'

export async function build({ outdir = join(root, 'dist'), api = process.env.SERVICE_API_URL || DEFAULT_API, types = true } = {}) {
  await rm(outdir, { recursive: true, force: true })
  await mkdir(outdir, { recursive: true })
  const common = {
    bundle: true,
    // External: the map is still emitted, but the comment pointing at it would count against the size budget.
    sourcemap: 'external',
    target: ['chrome96', 'firefox100', 'safari15.4', 'edge96'],
    define: { __API__: JSON.stringify(api), __VERSION__: JSON.stringify(version) },
    legalComments: 'none',
    // Internal property names only (never public options, handle methods or event details), shortened
    // because every byte counts against the 3 KB budget. e2e tests run the result, so a slip shows there.
    mangleProps: /^(lifetime|deadline|action|message|show|imageData|authUrl|autoStart|image|header|api|problem)$/,
    logLevel: 'warning',
  }
  await Promise.all([
    esbuild({
      ...common,
      entryPoints: [join(root, 'src/auto.ts')],
      outfile: join(outdir, 'service-auth.js'),
      format: 'iife',
      minify: true,
      // No "use strict" prologue: the code does nothing that sloppy mode treats differently, and the
      // prologue would cost budget bytes. (The ESM build is strict by nature.)
      tsconfigRaw: { compilerOptions: { alwaysStrict: false } },
    }),
    esbuild({ ...common, entryPoints: [join(root, 'src/index.ts')], outfile: join(outdir, 'service-auth.mjs'), format: 'esm' }),
    // The Node helper for integrators' controllers (the `service-auth/server` subpath); jose stays a dependency.
    esbuild({
      entryPoints: [join(root, 'src/server/index.ts')],
      outfile: join(outdir, 'server.mjs'),
      bundle: true,
      sourcemap: true,
      platform: 'node',
      target: 'node20',
      format: 'esm',
      external: ['jose'],
      logLevel: 'warning',
    }),
  ])
  // A second pass with terser's multi-pass compressor finds a few percent esbuild leaves, and the
  // IIFE's 3 KB gzip budget needs them. The source map is carried through.
  const iifePath = join(outdir, 'service-auth.js')
  const squeezed = await minify(
    { 'service-auth.js': await readFile(iifePath, 'utf8') },
    {
      ecma: 2020,
      // booleans_as_integers is safe here: no code compares booleans by identity or type.
      compress: { passes: 5, unsafe: true, unsafe_arrows: true, unsafe_comps: true, pure_getters: true, booleans_as_integers: true, toplevel: true },
      mangle: true,
      sourceMap: { content: await readFile(iifePath + '.map', 'utf8'), filename: 'service-auth.js' },
    },
  )
  await writeFile(iifePath, squeezed.code)
  await writeFile(iifePath + '.map', squeezed.map)
  // The CDN copy is immutable per version: same bytes, same SRI hash.
  const versioned = `service-auth-${version}.js`
  await copyFile(iifePath, join(outdir, versioned))
  await copyFile(iifePath + '.map', join(outdir, versioned + '.map'))
  if (types) {
    execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json'), '--outDir', join(outdir, 'types')], { stdio: 'inherit' })
  }
  return writeManifest(outdir)
}

async function writeManifest(outdir) {
  const manifest = { version, files: {} }
  for (const name of (await readdir(outdir)).sort()) {
    if (!/\.(m?js)$/.test(name)) continue
    const bytes = await readFile(join(outdir, name))
    manifest.files[name] = {
      bytes: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
      integrity: 'sha384-' + createHash('sha384').update(bytes).digest('base64'),
    }
  }
  await writeFile(join(outdir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
  return manifest
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const manifest = await build()
  for (const [name, file] of Object.entries(manifest.files)) {
    console.log(`${name.padEnd(26)} ${String(file.bytes).padStart(6)} B  gzip ${String(file.gzip).padStart(5)} B  brotli ${String(file.brotli).padStart(5)} B  ${file.integrity}`)
  }
  const cdn = `service-auth-${manifest.version}.js`
  const integrity = manifest.files[cdn].integrity
  console.log(`\nPinned tag (README.md): integrity="${integrity}" for ${cdn}`)
  // `node build.mjs --readme` writes that hash into the README's pinned tag (a test checks it).
  if (process.argv.includes('--readme')) {
    const readmePath = join(root, 'README.md')
    const readme = await readFile(readmePath, 'utf8')
    await writeFile(readmePath, readme.replace(/(service-auth-[\d.]+\.js"\s+integrity=")sha384-[^"]+/, `$1${integrity}`))
  }
}
