// @vitest-environment node
// The import rules between the workspaces: a package is entered only by its published names,
// never by a relative path that crosses its folder (the demo imports the packages as an
// integrator would, e2e and the bench the demo by its name); the embed's package knows nothing
// of the mock; the mock reaches the embed's package only by its published names. Checked on
// every import specifier of every source and test file, static or dynamic.
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const TREES = ['packages', 'demo', 'e2e', 'bench', 'test', 'examples']

/** Every import of every code file under `dir`, as [file, the path or package it names], relative to `base`. */
async function importsUnder(dir: string, base = root): Promise<[string, string][]> {
  const found: [string, string][] = []
  for (const entry of await readdir(join(base, dir), { withFileTypes: true, recursive: true })) {
    // What builds write (dist/, an example's build/, .svelte-kit/, .next/) is not the source.
    if (!entry.isFile() || !/\.(m?[jt]sx?|vue|svelte)$/.test(entry.name) || /node_modules|\/(dist|build|\.svelte-kit|\.next)(\/|$)/.test(entry.parentPath))
      continue
    const file = join(entry.parentPath, entry.name)
    const code = await readFile(file, 'utf8')
    for (const [, specifier] of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*|\bvi\.mock\(\s*)['"]([^'"]+)['"]/gm)) {
      // A relative import names a path of the repository; a bare one, a package.
      const target = specifier!.startsWith('.') ? relative(base, resolve(dirname(file), specifier!)) : specifier!
      found.push([relative(base, file), target])
    }
  }
  return found
}

const BUILT = /(^|\/)(node_modules|dist|build|\.svelte-kit|\.next)(\/|$)/

/** The package folder a path is in (the nearest folder above it with a package.json, the repository's own aside), or '' for none. */
function packageOf(path: string, base: string): string {
  // resolve() drops the trailing slash the repository's root has, so that `top + sep` is a prefix.
  const top = resolve(base)
  for (let dir = dirname(join(top, path)); dir.startsWith(top + sep); dir = dirname(dir)) {
    // What a build writes (.next/ has a package.json of its own) is part of the package it is in.
    if (BUILT.test(relative(top, dir))) continue
    if (existsSync(join(dir, 'package.json'))) return relative(top, dir)
  }
  return ''
}

/** The relative imports of the trees under `base` that leave the importing file's package, or enter another. */
async function crossings(base = root): Promise<string[]> {
  const trees = TREES.filter((tree) => existsSync(join(base, tree)))
  const imports = (await Promise.all(trees.map((tree) => importsUnder(tree, base)))).flat()
  // A bare name is a package's published entry; only a path can cross a package's folder.
  return imports
    .filter(([file, target]) => /^(packages|demo|e2e|bench|test|examples)\//.test(target) && packageOf(file, base) !== packageOf(target, base))
    .map(([file, target]) => `${file} imports ${target}`)
}

const breaking = (imports: [string, string][], forbidden: RegExp) =>
  imports.filter(([, target]) => forbidden.test(target)).map(([file, target]) => `${file} imports ${target}`)

describe('the import rules', () => {
  it('finds the imports it checks', async () => {
    expect((await importsUnder('packages/service-auth')).length).toBeGreaterThan(100)
    expect((await importsUnder('packages/mock')).length).toBeGreaterThan(100)
  })

  it("no file imports into a package's folder, or out of its own, by a relative path: packages are entered by their names", async () => {
    expect(await crossings()).toEqual([])
  })

  it('finds a planted crossing, from outside a package, out of one, and between two', async () => {
    const base = await mkdtemp(join(tmpdir(), 'import-rules-'))
    try {
      const file = async (path: string, text: string) => {
        await mkdir(dirname(join(base, path)), { recursive: true })
        await writeFile(join(base, path), text)
      }
      // Written so that this file's own source holds no import of those paths for the scan above to find.
      const importing = (...targets: string[]) => targets.map((target) => `import { x } from '${target}'\n`).join('')
      await file('packages/mock/package.json', '{}')
      await file('packages/mock/src/server.ts', importing('./x.js'))
      await file('packages/mock/src/x.ts', 'export const x = 1\n')
      await file('packages/mock/test/server.test.ts', importing('../src/x.js'))
      await file('demo/package.json', '{}')
      await file('demo/app.ts', importing('../packages/mock/src/x.js'))
      await file('e2e/spec.ts', importing('../packages/mock/src/x.js', './y.js'))
      await file('e2e/y.ts', importing('../demo/app.js'))
      await file('bench/run.ts', importing('../e2e/y.js', '@service-auth/mock'))
      await file('packages/mock/src/leak.ts', importing('../../../e2e/y.js'))
      // With the trailing slash the repository's root has, as crossings() is given it above.
      expect((await crossings(base + sep)).sort()).toEqual([
        'demo/app.ts imports packages/mock/src/x.js',
        'e2e/spec.ts imports packages/mock/src/x.js',
        'e2e/y.ts imports demo/app.js',
        'packages/mock/src/leak.ts imports e2e/y.js',
      ])
    } finally {
      await rm(base, { recursive: true, force: true })
    }
  })

  it('service-auth, its sources and its tests, imports nothing of the mock, the demo or the repository around it', async () => {
    const imports = await importsUnder('packages/service-auth')
    expect(breaking(imports, /^@service-auth\/mock|^packages\/mock|^demo|^e2e|^bench|^examples|^test\//)).toEqual([])
    // Relative imports stay inside the package.
    expect(imports.filter(([, target]) => /^(\.\.|packages\/(?!service-auth\/))/.test(target)).map(([file, target]) => `${file} imports ${target}`)).toEqual([])
  })

  it('the mock reaches service-auth only by its published names, and imports nothing of the demo', async () => {
    const imports = await importsUnder('packages/mock')
    expect(breaking(imports, /^packages\/service-auth|^demo|^e2e|^bench|^examples|^test\//)).toEqual([])
    expect(imports.filter(([, target]) => /^(\.\.|packages\/(?!mock\/))/.test(target)).map(([file, target]) => `${file} imports ${target}`)).toEqual([])
    const published = Object.keys(JSON.parse(await readFile(join(root, 'packages/service-auth/package.json'), 'utf8')).exports).map((path) =>
      join('service-auth', path),
    )
    const named = imports.filter(([, target]) => /^service-auth(\/|$)/.test(target)).map(([, target]) => target)
    expect(named.length).toBeGreaterThan(0)
    for (const target of named) expect(published, target).toContain(target)
  })

  it('one import-extension style: a file is imported with its extension, and a TypeScript one by the .js name the build emits', async () => {
    // The Next.js example imports as Next.js apps do, without extensions, which its bundler resolves.
    const everywhere = (await Promise.all(['packages', 'demo', 'e2e', 'bench', 'test', 'examples'].map((dir) => importsUnder(dir))))
      .flat()
      .filter(([file]) => !file.startsWith('examples/next/'))
    const relative = everywhere.filter(([, target]) => /^(packages|demo|e2e|bench|test|examples)\//.test(target))
    expect(relative.length).toBeGreaterThan(500)
    // SvelteKit's generated `./$types` is no file, and a `${…}` is a string that only looks like an import.
    expect(
      relative
        .filter(([, target]) => !/\.(js|mjs|json|css|vue|svelte)$/.test(target) && !target.includes('$'))
        .map(([file, target]) => `${file} imports ${target}`),
    ).toEqual([])
  })

  it("nothing outside the demo imports it but the repository's own tests and tools", async () => {
    for (const dir of ['packages/service-auth', 'packages/mock', 'packages/http', 'examples'])
      expect(breaking(await importsUnder(dir), /^(demo|service-auth-demo)(\/|$)/), dir).toEqual([])
  })

  it("the private @service-auth/http is the repository's own: no published package declares it a dependency, and the examples do not import it", async () => {
    for (const dir of ['packages/service-auth', 'packages/mock']) {
      const { dependencies = {}, peerDependencies = {}, optionalDependencies = {} } = JSON.parse(await readFile(join(root, dir, 'package.json'), 'utf8'))
      expect(Object.keys({ ...dependencies, ...peerDependencies, ...optionalDependencies }), dir).not.toContain('@service-auth/http')
    }
    expect(breaking(await importsUnder('examples'), /^@service-auth\/http/)).toEqual([])
    expect(breaking(await importsUnder('packages/service-auth'), /^@service-auth\/http/)).toEqual([])
  })
})
