// Builds @service-auth/mock for Node: the `service-auth-mock` command (dist/cli.mjs), the test
// kit (dist/index.mjs), the knob client (dist/knobs.mjs) and the service in-process
// (dist/service.mjs), with their declarations. Build service-auth first: the mock's types name it.
import { build as esbuild } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { readdir, readFile, rm } from 'node:fs/promises'
import { builtinModules, createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('.', import.meta.url))
// The workspace hoists TypeScript to the repository's node_modules; its compiler is run as a
// program (TypeScript 7 has no JavaScript API).
const tsc = join(createRequire(import.meta.url).resolve('typescript/package.json'), '../bin/tsc')

export async function build({ outdir = join(root, 'dist'), types = true } = {}) {
  const { dependencies = {}, optionalDependencies = {} } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'))
  await rm(outdir, { recursive: true, force: true })
  await esbuild({
    // Its source starts with the #! line, which esbuild keeps first.
    entryPoints: {
      cli: join(root, 'src/cli.ts'),
      index: join(root, 'src/index.ts'),
      knobs: join(root, 'src/testing/knob-client.ts'),
      service: join(root, 'src/service/index.ts'),
    },
    outdir,
    outExtension: { '.js': '.mjs' },
    // Split, so that the data directory's backend, and lmdb with it, is a chunk of its own that
    // only a data directory loads: `--in-memory` and startMockService() load no native code.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    // Not linked: the package ships no maps.
    sourcemap: 'external',
    // The dependencies stay imports; what the mock and the QR reader need beyond them (qrcode,
    // jsqr, pngjs, and the repository's private @service-auth/http) is bundled, so nothing
    // compiles TypeScript or fetches more at run time.
    external: [...Object.keys(dependencies), ...Object.keys(optionalDependencies)],
    // The bundled CommonJS packages require() Node's own modules, which an ES module has no require for.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'\nconst require = __createRequire(import.meta.url)" },
    legalComments: 'none',
    logLevel: 'warning',
  })
  if (!types) return
  // `service-auth` resolves through the workspace's node_modules to its built declarations, as it
  // will for an installed package, rather than to its sources by the repository's paths.
  const config = join(root, 'tsconfig.build.json')
  execFileSync(process.execPath, [tsc, '-p', config, '--outDir', join(outdir, 'types')], { stdio: 'inherit' })
  await checkPublishedTypes(outdir, Object.keys(dependencies))
}

/**
 * The declarations an installed package's importer reads, from each export's types through every
 * relative import, name only Node's modules and the package's dependencies. A type of the private
 * @service-auth/http (bundled into the code, not published) would be a module no installed
 * project can resolve: the build fails here, naming the file, rather than the integrator's type
 * check. The declarations no export reaches (the service's insides) are not shipped.
 */
async function checkPublishedTypes(outdir, dependencies) {
  const { exports } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'))
  const entries = Object.values(exports).flatMap((target) => (typeof target === 'object' && target.types ? [resolve(root, target.types)] : []))
  const seen = new Set()
  const wrong = []
  for (const file of entries) {
    if (seen.has(file)) continue
    seen.add(file)
    const text = await readFile(file, 'utf8')
    for (const [, specifier] of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"]([^'"]+)['"]/g)) {
      if (specifier.startsWith('.')) entries.push(resolve(dirname(file), specifier.replace(/\.js$/, '.d.ts')))
      else if (
        !builtinModules.includes(specifier.replace(/^node:/, '')) &&
        !dependencies.some((name) => specifier === name || specifier.startsWith(`${name}/`))
      )
        wrong.push(`${file.slice(outdir.length + 1)} imports ${specifier}`)
    }
  }
  if (wrong.length) throw new Error(`The published declarations name what an installed package cannot resolve:\n${wrong.join('\n')}`)
  const found = await readdir(join(outdir, 'types'), { recursive: true, withFileTypes: true })
  for (const entry of found) if (entry.isFile() && !seen.has(join(entry.parentPath, entry.name))) await rm(join(entry.parentPath, entry.name))
  // The deepest first, so that a folder whose folders went is seen empty too.
  const folders = found.filter((entry) => entry.isDirectory()).map((entry) => join(entry.parentPath, entry.name))
  for (const folder of folders.sort((a, b) => b.length - a.length)) if ((await readdir(folder)).length === 0) await rm(folder, { recursive: true })
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await build()
}
