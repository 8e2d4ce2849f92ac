// @vitest-environment node
// The import rules between the workspaces: the embed's package knows nothing of the mock, the mock
// reaches the embed's package only by its published names (as an installed package would), and
// nothing of either package reaches into the demo app. Checked on every import specifier of
// every source and test file, static or dynamic.
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))

/** Every import of every code file under `dir`, as [file, the path or package it names]. */
async function importsUnder(dir: string): Promise<[string, string][]> {
  const found: [string, string][] = []
  for (const entry of await readdir(join(root, dir), { withFileTypes: true, recursive: true })) {
    // What builds write (dist/, an example's build/, .svelte-kit/, .next/) is not the source.
    if (!entry.isFile() || !/\.(m?[jt]sx?)$/.test(entry.name) || /node_modules|\/(dist|build|\.svelte-kit|\.next)(\/|$)/.test(entry.parentPath)) continue
    const file = join(entry.parentPath, entry.name)
    const code = await readFile(file, 'utf8')
    for (const [, specifier] of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*|\bvi\.mock\(\s*)['"]([^'"]+)['"]/gm)) {
      // A relative import names a path of the repository; a bare one, a package.
      const target = specifier!.startsWith('.') ? relative(root, resolve(dirname(file), specifier!)) : specifier!
      found.push([relative(root, file), target])
    }
  }
  return found
}

const breaking = (imports: [string, string][], forbidden: RegExp) =>
  imports.filter(([, target]) => forbidden.test(target)).map(([file, target]) => `${file} imports ${target}`)

describe('the import rules', () => {
  it('finds the imports it checks', async () => {
    expect((await importsUnder('packages/service-auth')).length).toBeGreaterThan(100)
    expect((await importsUnder('packages/mock')).length).toBeGreaterThan(100)
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
    const everywhere = (await Promise.all(['packages', 'demo', 'e2e', 'bench', 'test', 'examples'].map(importsUnder)))
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
    for (const dir of ['packages/service-auth', 'packages/mock', 'examples']) expect(breaking(await importsUnder(dir), /^demo(\/|$)/), dir).toEqual([])
  })
})
