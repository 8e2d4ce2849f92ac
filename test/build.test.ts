// @vitest-environment node
// The build's promises: the artefacts, their manifest, the baked-in API URL, and the size budget.
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { build, DEFAULT_API } from '../build.mjs'
import { BUDGET_FILE, IIFE_GZIP_BUDGET } from '../budget.mjs'

let outdir: string
let manifest: { version: string; budget: { file: string; gzip: number }; files: Record<string, { bytes: number; gzip: number; brotli: number; integrity: string }> }
const read = (name: string) => readFile(join(outdir, name))

beforeAll(async () => {
  outdir = await mkdtemp(join(tmpdir(), 'service-auth-build-'))
  // The budget is measured on what ships: the default build.
  manifest = await build({ outdir, api: DEFAULT_API, types: false })
}, 60_000)
afterAll(() => rm(outdir, { recursive: true, force: true }))

describe('build', () => {
  it(`keeps the IIFE within its budget of ${IIFE_GZIP_BUDGET} bytes gzipped, and writes the budget into the manifest`, async () => {
    expect(BUDGET_FILE).toBe('service-auth.js')
    const gzip = gzipSync(await read(BUDGET_FILE), { level: 9 }).length
    expect(manifest.files[BUDGET_FILE].gzip).toBe(gzip)
    expect(gzip).toBeLessThanOrEqual(IIFE_GZIP_BUDGET)
    expect(manifest.budget).toEqual({ file: BUDGET_FILE, gzip: IIFE_GZIP_BUDGET })
  })

  it('ships the ES module unminified: one statement a line, its own names, property names as written', async () => {
    const esm = (await read('service-auth.mjs')).toString()
    expect(esm.split('\n').length).toBeGreaterThan(200)
    for (const name of ['function readConfig', 'function createView', 'function createWidget', 'authUrl', 'imageKind', 'expiresAt']) expect(esm, name).toContain(name)
  })

  it('renames no property in the CDN script: the mount options and the wire fields keep their names', async () => {
    const iife = (await read(BUDGET_FILE)).toString()
    for (const name of ['authUrl', 'imageKind', 'apiKey', 'pollingUrl', 'expiresAt', 'retryAfter']) expect(iife, name).toContain(name)
    // Booleans stay booleans: a listener may compare `event.bubbles === true`.
    expect(iife).toMatch(/bubbles:!0/)
  })

  it('lists every file with its bytes, gzip and brotli sizes and a matching sha384 SRI hash', async () => {
    const version = JSON.parse(await readFile('package.json', 'utf8')).version
    expect(Object.keys(manifest.files).sort()).toEqual(
      [
        'server.mjs',
        `service-auth-${version}.js`,
        'service-auth.js',
        'service-auth.mjs',
        `service-auth-${version}.css`,
        'service-auth.css',
        `service-auth-${version}.de.js`,
        'service-auth.de.js',
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
    expect((await read(`service-auth-${manifest.version}.de.js`)).equals(await read('service-auth.de.js'))).toBe(true)
  })

  it('makes each language pack a script that adds its texts beside any other pack\'s, and keeps them out of the main script', async () => {
    const pack = (await read('service-auth.de.js')).toString()
    const page: { ServiceAuthTexts?: Record<string, Record<string, string>> } = {}
    new Function('self', pack)(page)
    expect(page.ServiceAuthTexts!.de.ready).toBe('Mit der App scannen')
    // A second pack keeps the first.
    new Function('self', pack.replace('"de"', '"xx"'))(page)
    expect(Object.keys(page.ServiceAuthTexts!)).toEqual(['de', 'xx'])
    // Not in the main script: a language costs it nothing.
    expect((await read('service-auth.js')).toString()).not.toContain('Mit der App scannen')
  })

  it('bakes SERVICE_API_URL in as the default service URL', async () => {
    const custom = await mkdtemp(join(tmpdir(), 'service-auth-api-'))
    const previous = process.env.SERVICE_API_URL
    process.env.SERVICE_API_URL = 'https://auth.build-test.example'
    try {
      await build({ outdir: custom, types: false })
      for (const name of ['service-auth.js', 'service-auth.mjs']) {
        const code = (await readFile(join(custom, name))).toString()
        expect(code).toContain('https://auth.build-test.example')
        expect(code).not.toContain(DEFAULT_API)
      }
    } finally {
      process.env.SERVICE_API_URL = previous
      if (previous === undefined) delete process.env.SERVICE_API_URL
      await rm(custom, { recursive: true, force: true })
    }
    expect((await read('service-auth.js')).toString()).toContain(DEFAULT_API)
    // A whole build: seconds on a busy two-core machine, well past vitest's default 5 s.
  }, 60_000)

  it('sets the one global only from the IIFE; the ESM build exports the API and touches no window', async () => {
    const esm = (await read('service-auth.mjs')).toString()
    expect(esm).not.toMatch(/window\.ServiceAuth|ServiceAuth\s*=/)
    expect(esm).toMatch(/export\s*\{[^}]*\bmount\b/)
    expect((await read('service-auth.js')).toString()).toContain('ServiceAuth')
  })

  it("keeps the README's pinned script, stylesheet and language pack tags true: their integrity is the built files'", async () => {
    const readme = await readFile('README.md', 'utf8')
    for (const [attribute, ext] of [['src', 'js'], ['href', 'css'], ['src', 'de.js']]) {
      const [, file, integrity] = readme.match(new RegExp(`${attribute}="[^"]*/(service-auth-[\\d.]+\\.${ext})"\\s+integrity="([^"]+)"`))!
      expect(file).toBe(`service-auth-${manifest.version}.${ext}`)
      expect(integrity).toBe(manifest.files[file].integrity)
    }
  })

  it('emits source maps for both builds', async () => {
    for (const name of ['service-auth.js.map', 'service-auth.mjs.map']) {
      expect(JSON.parse((await read(name)).toString()).sources.some((source: string) => source.includes('widget.ts'))).toBe(true)
    }
  })
})
