// @vitest-environment node
// The build's promises: the artefacts, their manifest, the baked-in API URL, and the size budget.
import { execFile } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { createContext, runInContext } from 'node:vm'
import { gzipSync } from 'node:zlib'
import { Window } from 'happy-dom'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { ALL_LANGUAGES, build, ELEMENT_BUDGET, IIFE_BUDGET as BUDGET, languagePacks, languageTable } from '../build.mjs'
import type { Pack } from '../src/i18n.js'

let outdir: string
/** The language packs' codes, as the build finds them in src/languages/. */
const codes = await languagePacks()
let manifest: {
  version: string
  budget: Record<string, { gzip: number }>
  files: Record<string, { bytes: number; gzip: number; brotli: number; integrity: string }>
  languages: Record<string, { name: string; lang: string; dir: 'ltr' | 'rtl'; tags: string[]; file: string }>
}
/** Each pack as its source has it, by code. */
const sources: Record<string, { name: string; pack: Pack }> = Object.fromEntries(
  await Promise.all(codes.map(async (code) => [code, await import(`../src/languages/${code}.ts`)] as const)),
)
/** The most a pack may weigh, gzipped, as the README promises. */
const PACK_BUDGET = 700
const read = (name: string) => readFile(join(outdir, name))

/** The README's example service URL: what a hosted service's CDN build would bake in, give or take a few letters. */
const EXAMPLE_API = 'https://api.service-auth.example'

beforeAll(async () => {
  outdir = await mkdtemp(join(tmpdir(), 'service-auth-build-'))
  // What ships, as `npm run build` makes it: without SERVICE_API_URL, whatever this shell has.
  vi.stubEnv('SERVICE_API_URL', '')
  try {
    manifest = await build({ outdir, types: false })
  } finally {
    vi.unstubAllEnvs()
  }
}, 60_000)
afterAll(() => rm(outdir, { recursive: true, force: true }))

describe('build', () => {
  it(`keeps the IIFE within its budget of ${BUDGET} bytes gzipped`, async () => {
    const gzip = gzipSync(await read('service-auth.js'), { level: 9 }).length
    expect(manifest.files['service-auth.js'].gzip).toBe(gzip)
    expect(gzip).toBeLessThanOrEqual(BUDGET)
    expect(manifest.budget['service-auth.js'].gzip).toBe(BUDGET)
  })

  it('is as small as the README says at its top', async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8')
    const [, kilobytes] = /^A (\d+(?:\.\d)?) KB embed \(gzipped/m.exec(readme)!
    expect(manifest.files['service-auth.js'].gzip).toBeLessThanOrEqual(Number(kilobytes) * 1024)
  })

  it('minifies plainly: no property renamed, in any build, and the ES module not minified at all', async () => {
    const iife = (await read('service-auth.js')).toString()
    const esm = (await read('service-auth.mjs')).toString()
    // Property names as the source has them: the options, the wire format, the view model.
    for (const name of ['imageKind', 'authHeader', 'pollingUrl', 'imageSrc', 'deadline', 'autoStart']) {
      expect(iife).toContain(name)
      expect(esm).toContain(name)
    }
    // Readable: the source's own function names, one statement a line, indented.
    expect(esm).toMatch(/function createWidget\(el, options, onDestroy, onCreate\)/)
    expect(esm).toMatch(/\n {2}const config = readConfig\(el, options\);\n/)
    // Booleans stay booleans (terser's booleans_as_integers would make `bubbles: 1`).
    expect(iife).toMatch(/bubbles:!0/)
  })

  it('lists every file with its bytes, gzip and brotli sizes and a matching sha384 SRI hash', async () => {
    const version = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')).version
    expect(Object.keys(manifest.files).sort()).toEqual(
      [
        'server.mjs',
        'react.mjs',
        'vue.mjs',
        'element.mjs',
        'service-auth-element.js',
        `service-auth-element-${version}.js`,
        `service-auth-${version}.js`,
        'service-auth.js',
        'service-auth.mjs',
        `service-auth-${version}.css`,
        'service-auth.css',
        ...[...codes, ALL_LANGUAGES].flatMap((name) => [`service-auth-${version}.${name}.js`, `service-auth.${name}.js`]),
      ].sort(),
    )
    for (const [name, file] of Object.entries(manifest.files)) {
      const bytes = await read(name)
      expect(file.bytes).toBe(bytes.length)
      expect(file.brotli).toBeGreaterThan(0)
      expect(file.gzip).toBeLessThan(file.bytes)
      expect(file.integrity).toBe('sha384-' + createHash('sha384').update(bytes).digest('base64'))
    }
    expect(JSON.parse((await read('manifest.json')).toString())).toEqual(manifest)
  })

  it('makes the versioned CDN copies byte-identical, so one integrity hash pins both', async () => {
    expect((await read(`service-auth-${manifest.version}.js`)).equals(await read('service-auth.js'))).toBe(true)
    expect((await read(`service-auth-${manifest.version}.css`)).equals(await read('service-auth.css'))).toBe(true)
    for (const name of [...codes, ALL_LANGUAGES]) {
      expect((await read(`service-auth-${manifest.version}.${name}.js`)).equals(await read(`service-auth.${name}.js`)), name).toBe(true)
    }
  })

  it('describes each language pack in the manifest: its name, tag, direction, the tags it answers to and its file', () => {
    expect(Object.keys(manifest.languages)).toEqual(codes)
    for (const code of codes) {
      const { name, pack } = sources[code]
      expect(manifest.languages[code], code).toEqual({
        name,
        lang: pack.lang,
        dir: pack.dir ?? 'ltr',
        tags: [pack.lang, ...(pack.also ?? [])].map((tag) => tag.toLowerCase()),
        file: `service-auth.${code}.js`,
      })
      expect(manifest.files[`service-auth.${code}.js`], code).toBeDefined()
    }
    expect(codes.length).toBeGreaterThanOrEqual(40)
  })

  /** Runs `files` as classic scripts in a page of their own; what they leave in its global object. */
  async function runInPage(files: string[]): Promise<Record<string, unknown> & { ServiceAuthTexts?: Record<string, Pack> }> {
    const page = createContext({})
    for (const file of files) runInContext((await read(file)).toString(), page)
    return page
  }

  it("makes each language pack a script that adds its pack beside any other pack's, under every tag it answers to, and keeps them out of the main script", async () => {
    const page = await runInPage(codes.map((code) => `service-auth.${code}.js`))
    // The packs' two globals, and nothing else (no name of a pack's script leaks into the page).
    expect(Object.keys(page).sort()).toEqual(['ServiceAuthPickLanguage', 'ServiceAuthTexts'])
    expect(typeof page.ServiceAuthPickLanguage).toBe('function')
    expect(Object.keys(page.ServiceAuthTexts!)).toEqual(codes.flatMap((code) => manifest.languages[code].tags))
    for (const code of codes) {
      for (const tag of manifest.languages[code].tags) expect(page.ServiceAuthTexts![tag], tag).toEqual(sources[code].pack)
    }
    // Not in the main script: a language costs it nothing, nor does choosing one.
    const main = (await read('service-auth.js')).toString()
    expect(main).not.toContain('Mit der App scannen')
    expect(main).not.toMatch(/navigator\.languages|closest\(/)
  })

  it(`makes service-auth.${ALL_LANGUAGES}.js every pack in one script, as each pack's own script adds it`, async () => {
    const one = await runInPage([`service-auth.${ALL_LANGUAGES}.js`])
    const each = await runInPage(codes.map((code) => `service-auth.${code}.js`))
    expect(one.ServiceAuthTexts).toEqual(each.ServiceAuthTexts)
    expect(Object.keys(one).sort()).toEqual(['ServiceAuthPickLanguage', 'ServiceAuthTexts'])
    // The chooser once, not once a pack: far smaller than the packs apart.
    const apart = codes.reduce((sum, code) => sum + manifest.files[`service-auth.${code}.js`].gzip, 0)
    expect(manifest.files[`service-auth.${ALL_LANGUAGES}.js`].gzip).toBeLessThan(apart / 2)
  })

  it('makes every language pack safe to import in Node, as a server render of a page that imports it does', async () => {
    // Its own process, as a server is: nothing of the test runner's globals (happy-dom's self, say)
    // to lean on. Each pack only adds itself to the global object, which no server reads.
    const probe = `for (const file of process.argv.slice(1)) await import(file)
console.log(JSON.stringify(Object.fromEntries(Object.values(globalThis.ServiceAuthTexts).map((pack) => [pack.lang, pack.retry]))))`
    const files = codes.map((code) => pathToFileURL(join(outdir, `service-auth.${code}.js`)).href)
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', probe, ...files])
    expect(JSON.parse(stdout)).toEqual(Object.fromEntries(codes.map((code) => [sources[code].pack.lang, sources[code].pack.retry])))
    expect(JSON.parse(stdout)).toMatchObject({ de: 'Erneut versuchen', ar: 'إعادة المحاولة', 'zh-TW': '再試一次' })
  })

  it('bakes SERVICE_API_URL in as the default service URL, at no more cost than the URL itself', async () => {
    const custom = await mkdtemp(join(tmpdir(), 'service-auth-api-'))
    vi.stubEnv('SERVICE_API_URL', EXAMPLE_API)
    try {
      const withDefault: typeof manifest = await build({ outdir: custom, types: false })
      for (const name of ['service-auth.js', 'service-auth.mjs']) expect((await readFile(join(custom, name))).toString()).toContain(EXAMPLE_API)
      // The budget is the published build's, which has no default; a hosted build's adds its URL.
      expect(withDefault.files['service-auth.js'].gzip - manifest.files['service-auth.js'].gzip).toBeLessThanOrEqual(EXAMPLE_API.length)
    } finally {
      vi.unstubAllEnvs()
      await rm(custom, { recursive: true, force: true })
    }
    // Without it, none: not the placeholder every build used to carry.
    for (const name of ['service-auth.js', 'service-auth.mjs']) expect((await read(name)).toString()).not.toContain(EXAMPLE_API)
    // A whole build: seconds on a busy two-core machine, well past vitest's default 5 s.
  }, 60_000)

  it('makes a widget without data-service-api, on a build without a default, a config error that names it, at once, and no request', async () => {
    const logged: string[] = []
    const page = new Window({ url: 'https://shop.example/login', console: { ...console, error: (...args: unknown[]) => logged.push(args.join(' ')) } })
    const fetched = vi.fn(async () => new Response(null, { status: 503 }))
    // The origin global that happy-dom lacks (see test/setup/happy-dom.ts).
    Object.assign(page, { fetch: fetched, MessageChannel, origin: page.location.origin })
    page.document.body.innerHTML = '<div data-service-auth data-service-key="pk_test" data-service-auth-url="/auth/controller"></div>'
    page.eval((await read('service-auth.js')).toString())
    expect(page.document.querySelector('[role=status]')?.textContent).toBe('Sign-in is unavailable')
    expect(logged).toEqual(['service-auth: data-service-api is missing or invalid'])
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(fetched).not.toHaveBeenCalled()
    await page.happyDOM.close()
  })

  it('sets the one global only from the IIFE; the ESM build exports the API and touches no window', async () => {
    const esm = (await read('service-auth.mjs')).toString()
    expect(esm).not.toMatch(/window\.ServiceAuth|ServiceAuth\s*=/)
    expect(esm).toMatch(/export\s*\{[^}]*\bmount\b/)
    expect((await read('service-auth.js')).toString()).toContain('ServiceAuth')
  })

  it('builds the element and the Vue component as modules that import the ES module (and Vue) rather than carrying copies', async () => {
    for (const [name, imports] of [
      ['element.mjs', ['service-auth']],
      ['vue.mjs', ['vue', 'service-auth']],
    ] as const) {
      const code = (await read(name)).toString()
      expect(new Set([...code.matchAll(/from\s*"([^"]+)"/g)].map((match) => match[1])), name).toEqual(new Set(imports))
      expect(code, name).not.toContain('/v1/entity/challenges')
    }
    expect((await read('element.mjs')).toString()).toContain('customElements.define("service-auth"')
    // Nor is either in the CDN script, whose budget is its own.
    expect((await read('service-auth.js')).toString()).not.toMatch(/customElements|defineComponent/)
  })

  it(`keeps the element's classic script within its budget of ${ELEMENT_BUDGET} bytes gzipped`, () => {
    expect(manifest.files['service-auth-element.js']!.gzip).toBeLessThanOrEqual(ELEMENT_BUDGET)
    expect(manifest.budget['service-auth-element.js']!.gzip).toBe(ELEMENT_BUDGET)
  })

  it("builds the element for CDN pages as a classic script that uses the CDN script's global, with nothing of the widget", async () => {
    const script = (await read('service-auth-element.js')).toString()
    expect(script).not.toMatch(/^\s*(import|export)\b/m)
    expect(script).toContain('load service-auth.js before it')
    expect(script).not.toContain('/v1/entity/challenges')
  })

  it('builds the React component as a client module that imports React and the ES module rather than carrying copies', async () => {
    const component = (await read('react.mjs')).toString()
    expect(component).toMatch(/^"use client";/)
    const imported = new Set([...component.matchAll(/from\s*"([^"]+)"/g)].map((match) => match[1]))
    expect(imported).toEqual(new Set(['react', 'react/jsx-runtime', 'service-auth']))
    expect(component).toMatch(/export\s*\{[^}]*\bServiceAuth\b/)
    // Nothing of the widget itself: one copy per page, the ES module's.
    expect(component).not.toContain('/v1/entity/challenges')
    // Nor of the component in the CDN script.
    expect((await read('service-auth.js')).toString()).not.toMatch(/use client|ServiceAuthProps|useEffect/)
  })

  it("keeps the README's pinned script, stylesheet and language pack tags true: their integrity is the built files'", async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8')
    for (const [attribute, ext] of [
      ['src', 'js'],
      ['href', 'css'],
      ['src', 'de.js'],
      ['src', `${ALL_LANGUAGES}.js`],
    ]) {
      const [, file, integrity] = readme.match(new RegExp(`${attribute}="[^"]*/(service-auth-[\\d.]+\\.${ext})"\\s+integrity="([^"]+)"`))!
      expect(file).toBe(`service-auth-${manifest.version}.${ext}`)
      expect(integrity).toBe(manifest.files[file].integrity)
    }
  })

  it("keeps the README's table of language packs the manifest's: a row for every pack, with its pinned name and hash", async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8')
    const table = languageTable(manifest)
    expect(readme).toContain(table + '\n')
    for (const code of codes) {
      const file = `service-auth-${manifest.version}.${code}.js`
      expect(table).toContain(`| \`${code}\` | \`${file}\` | \`${manifest.files[file].integrity}\` |`)
    }
  })

  it(`keeps each language pack within the ${PACK_BUDGET} B gzipped the README promises`, async () => {
    const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8')
    expect(readme).toMatch(new RegExp(`at most ${PACK_BUDGET} B\\s+gzipped`))
    for (const code of codes) expect(manifest.files[`service-auth.${code}.js`].gzip, code).toBeLessThanOrEqual(PACK_BUDGET)
  })

  it('emits source maps for both builds', async () => {
    for (const name of ['service-auth.js.map', 'service-auth.mjs.map']) {
      expect(JSON.parse((await read(name)).toString()).sources.some((source: string) => source.includes('widget.ts'))).toBe(true)
    }
  })
})
