// Builds @service-auth/mock for Node: the `service-auth-mock` command (dist/cli.mjs) and the test
// kit (dist/index.mjs), with their declarations. Build service-auth first: the mock's types name it.
import { build as esbuild } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { readFile, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { join } from 'node:path'
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
    entryPoints: { cli: join(root, 'src/cli.ts'), index: join(root, 'src/index.ts') },
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
    // jsqr, pngjs) is bundled, so nothing compiles TypeScript or fetches more at run time.
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
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  await build()
}
