// The packages as integrators install them: `npm pack` of both workspaces (which builds them),
// publint and arethetypeswrong on each tarball, then fresh projects. The embed alone installs
// anywhere: with npm no install script, no native file, under 1 MB; with pnpm, too. With both
// packages: a page and service-auth's README's module examples type-check under node16 and
// bundler, the page bundles for production (the stylesheet import must survive), and that README's
// controller examples run in Node against the mock service. Then the test kit from its tarball:
// `npx service-auth-mock` with a page built from service-auth's README's markup and its Express
// controller, and @service-auth/mock's README's Playwright test as written, both in Chromium; and
// the kit without lmdb, as installed with --omit=optional or where native modules cannot load.
// The READMEs are read from the installed packages: what npm shows is what is run.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { isBuiltin } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { chromium } from '@playwright/test'
import { build } from 'esbuild'
import { decodeJwt, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_KEYS, TEST_SECRET } from '@service-auth/mock'
import { KnobClient } from '@service-auth/mock/knobs'
import { generateCredentials, startService, type ServiceHandle } from '@service-auth/mock/service'
import { chromiumLaunchOptions } from '../../e2e/chromium.js'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))
const bin = (name: string) => join(root, 'node_modules/.bin', name)
const tsc = join(root, 'node_modules/typescript/bin/tsc')
const INSTALL = ['--no-audit', '--no-fund', '--prefer-offline']

interface Packed {
  tarball: string
  files: string[]
}
let work: string
let project: string
/** service-auth's tarball. */
let tarball: string
let packed: string[]
let mock: Packed

/** A new directory with a package.json, for a fresh project. */
async function freshProject(name: string): Promise<string> {
  const dir = join(work, name)
  await mkdir(dir)
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }))
  return dir
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'service-auth-consumer-'))
  // In the workspaces' order: the mock's declarations name service-auth's, built first.
  const { stdout } = await run('npm', ['pack', '--workspace', 'service-auth', '--workspace', '@service-auth/mock', '--json', '--pack-destination', work], {
    cwd: root,
    maxBuffer: 16 << 20,
  })
  const infos = JSON.parse(stdout.slice(stdout.indexOf('['))) as { name: string; filename: string; files: { path: string }[] }[]
  const byName = (name: string): Packed => {
    const info = infos.find((entry) => entry.name === name)!
    return { tarball: join(work, info.filename), files: info.files.map((file) => file.path) }
  }
  ;({ tarball, files: packed } = byName('service-auth'))
  mock = byName('@service-auth/mock')

  project = await freshProject('consumer')
  // Their one dependency, jose, comes from npm's cache (filled by `npm ci`) or the registry; so do
  // what an integrator's app and tests bring of their own (Express, Playwright), at our versions.
  const theirs = await Promise.all(
    ['express', '@playwright/test'].map(
      async (name) => `${name}@${JSON.parse(await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')).version}`,
    ),
  )
  await run('npm', ['install', tarball, mock.tarball, ...theirs, ...INSTALL, '--ignore-scripts'], { cwd: project })
})
afterAll(() => rm(work, { recursive: true, force: true }))

/** Every file under a directory, with its size, following no links. */
async function filesUnder(dir: string): Promise<{ path: string; bytes: number }[]> {
  const found: { path: string; bytes: number }[] = []
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    found.push({ path, bytes: (await stat(path)).size })
  }
  return found
}

/** The packages installed under node_modules that run a script at install. */
async function installScripts(nodeModules: string): Promise<string[]> {
  const manifests = (await filesUnder(nodeModules)).filter(({ path }) => path.endsWith('/package.json'))
  const running: string[] = []
  for (const { path } of manifests) {
    const { name, scripts = {} } = JSON.parse(await readFile(path, 'utf8')) as { name?: string; scripts?: Record<string, string> }
    if (name && ['preinstall', 'install', 'postinstall'].some((hook) => hook in scripts)) running.push(name)
  }
  return running
}

/** What a built file imports, by specifier. */
const importsOf = (code: string) =>
  [
    /^\s*(?:import|export)\b[^'"\n]*?\bfrom\s*["']([^"']+)["']/gm,
    /^\s*import\s*["']([^"']+)["']/gm,
    /\bimport\(\s*["']([^"']+)["']\s*\)/g,
    /\brequire\(\s*["']([^"']+)["']\s*\)/g,
  ]
    .flatMap((pattern) => [...code.matchAll(pattern)])
    .map((match) => match[1]!)

describe('service-auth installs anywhere: its only dependency is jose', () => {
  it('npm: no install script, no native file, under 1 MB of node_modules', async () => {
    const dir = await freshProject('embed-npm')
    // As an integrator installs it: install scripts allowed, so that one would show.
    await run('npm', ['install', tarball, ...INSTALL], { cwd: dir })
    // Two packages, nothing else (React is an optional peer: not installed).
    expect((await readdir(join(dir, 'node_modules'))).filter((name) => !name.startsWith('.')).sort()).toEqual(['jose', 'service-auth'])
    const files = await filesUnder(join(dir, 'node_modules'))
    expect(files.filter(({ path }) => path.endsWith('.node'))).toEqual([])
    expect(await installScripts(join(dir, 'node_modules'))).toEqual([])
    expect(files.reduce((sum, { bytes }) => sum + bytes, 0)).toBeLessThan(1 << 20)
  })

  it('pnpm: `pnpm add` of the tarball, then a CI-style `pnpm install --frozen-lockfile`, both exit 0', async () => {
    const dir = await freshProject('embed-pnpm')
    const pnpm = (...args: string[]) =>
      run(process.execPath, [join(root, 'node_modules/pnpm/bin/pnpm.cjs'), ...args, '--store-dir', join(work, 'pnpm-store')], { cwd: dir })
    await pnpm('add', tarball)
    await rm(join(dir, 'node_modules'), { recursive: true })
    await pnpm('install', '--frozen-lockfile')
    const installed = JSON.parse(await readFile(join(dir, 'node_modules/service-auth/package.json'), 'utf8'))
    expect(installed.name).toBe('service-auth')
  })
})

describe("service-auth's tarball", () => {
  it('holds the built files, its README, LICENSE and package.json, and nothing else: no sources, no maps', () => {
    const outside = packed.filter((path) => !path.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(path))
    expect(outside).toEqual([])
    for (const file of ['README.md', 'LICENSE', 'package.json']) expect(packed).toContain(file)
    expect(packed.filter((path) => path.endsWith('.map'))).toEqual([])
    for (const file of ['dist/service-auth.mjs', 'dist/service-auth.js', 'dist/service-auth.css', 'dist/server.mjs', 'dist/types/index.d.ts'])
      expect(packed).toContain(file)
    for (const code of ['de', 'es', 'fr', 'it', 'nl', 'pl']) expect(packed).toContain(`dist/service-auth.${code}.js`)
    for (const path of packed) expect(path, 'nothing of the mock').not.toMatch(/\bcli\.|testing|mock/)
  })

  it('links no source map from what it ships', async () => {
    for (const path of packed.filter((path) => /\.m?js$/.test(path))) {
      expect(await readFile(join(project, 'node_modules/service-auth', path), 'utf8'), path).not.toContain('sourceMappingURL')
    }
  })

  it('ships a server helper with no Node-only code: it runs on Node, Bun, Deno and Workers alike', async () => {
    const server = await readFile(join(project, 'node_modules/service-auth/dist/server.mjs'), 'utf8')
    expect(server).not.toMatch(/from\s*["']node:|require\(|\bBuffer\b|\bprocess\./)
    expect(new Set([...server.matchAll(/from\s*["']([^"']+)["']/g)].map((match) => match[1]))).toEqual(new Set(['jose']))
  })

  it('publint finds nothing, not even a suggestion', async () => {
    const { stdout } = await run(bin('publint'), ['run', tarball, '--level', 'suggestion', '--strict'])
    expect(stdout).toContain('All good!')
  })

  it('arethetypeswrong finds nothing for an ESM-only package', async () => {
    // esm-only: the package has no CommonJS file, so node10 and require() from CJS are out of scope here (Node
    // 20.19+ can require() service-auth/server's ES module: the test of that runs it).
    // (It exits non-zero on a problem; the JSON lists the ignored resolutions' findings too.)
    const { stdout } = await run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'json'], { maxBuffer: 16 << 20 })
    const { problems = {} } = JSON.parse(stdout.slice(stdout.indexOf('{')))
    const counted = Object.values(problems as Record<string, { resolutionKind?: string }[]>)
      .flat()
      .filter((problem) => !['node10', 'node16-cjs'].includes(problem.resolutionKind ?? ''))
    expect(counted).toEqual([])
  })
})

describe("@service-auth/mock's tarball", () => {
  const installed = (path: string) => join(project, 'node_modules/@service-auth/mock', path)

  it('holds the built files, its bin, its README, LICENSE and package.json, and nothing else: no sources, no maps', () => {
    // openapi.yaml: the interface the mock serves, for anyone's tools (`@service-auth/mock/openapi.yaml`).
    // bin/service-auth-mock.mjs: the committed file npm links, which runs dist/cli.mjs.
    const beside = ['README.md', 'LICENSE', 'package.json', 'openapi.yaml', 'bin/service-auth-mock.mjs']
    expect(mock.files.filter((path) => !path.startsWith('dist/') && !beside.includes(path))).toEqual([])
    for (const file of ['README.md', 'LICENSE', 'package.json']) expect(mock.files).toContain(file)
    expect(mock.files.filter((path) => path.endsWith('.map'))).toEqual([])
    for (const file of ['bin/service-auth-mock.mjs', 'dist/cli.mjs', 'dist/index.mjs', 'dist/types/index.d.ts']) expect(mock.files).toContain(file)
  })

  it('runs as service-auth-mock, and imports nothing but Node, its dependencies and its own chunks; lmdb from one chunk, loaded for a data directory only', async () => {
    const { bin, dependencies, optionalDependencies } = JSON.parse(await readFile(installed('package.json'), 'utf8'))
    expect(bin).toEqual({ 'service-auth-mock': './bin/service-auth-mock.mjs' })
    expect(Object.keys(optionalDependencies)).toEqual(['lmdb'])
    const shipped = mock.files.filter((path) => path.endsWith('.mjs'))
    const importing: Record<string, string[]> = {}
    for (const file of shipped) {
      const imported = importsOf(await readFile(installed(file), 'utf8'))
      expect(
        imported.filter(
          (name) =>
            !isBuiltin(name) &&
            !name.startsWith('./') &&
            !name.startsWith('../') &&
            !Object.hasOwn(dependencies, name) &&
            !Object.hasOwn(optionalDependencies, name) &&
            !name.startsWith('service-auth/'),
        ),
        file,
      ).toEqual([])
      for (const name of imported) (importing[name] ??= []).push(file)
    }
    expect(importing.lmdb).toEqual([expect.stringMatching(/^dist\/chunks\/lmdb-backend-\w+\.mjs$/)])
    const lmdbChunk = importing.lmdb![0]!.slice('dist/chunks/'.length)
    // The chunk is imported dynamically only, by whatever opens a data directory.
    for (const [name, files] of Object.entries(importing))
      if (name.endsWith(lmdbChunk)) for (const file of files) expect(await readFile(installed(file), 'utf8')).toContain(`import("./${lmdbChunk}")`)
  })

  it('publint finds nothing, not even a suggestion', async () => {
    const { stdout } = await run(bin('publint'), ['run', mock.tarball, '--level', 'suggestion', '--strict'])
    expect(stdout).toContain('All good!')
  })

  it('arethetypeswrong finds nothing for an ESM-only package', async () => {
    // openapi.yaml is data, as package.json is: no module to resolve, no types to find.
    const { stdout } = await run(bin('attw'), [mock.tarball, '--profile', 'esm-only', '--exclude-entrypoints', './openapi.yaml', '--format', 'json'], {
      maxBuffer: 16 << 20,
    }).catch((error) => error)
    const { problems = {} } = JSON.parse(stdout.slice(stdout.indexOf('{')))
    const counted = Object.values(problems as Record<string, { resolutionKind?: string }[]>)
      .flat()
      .filter((problem) => !['node10', 'node16-cjs'].includes(problem.resolutionKind ?? ''))
    expect(counted).toEqual([])
  })

  describe('installed without lmdb (--omit=optional), as where native modules cannot load', () => {
    let dir: string
    beforeAll(async () => {
      dir = await freshProject('mock-no-native')
      await run('npm', ['install', tarball, mock.tarball, ...INSTALL, '--omit=optional'], { cwd: dir })
    })

    it('installs no native file', async () => {
      expect((await filesUnder(join(dir, 'node_modules'))).filter(({ path }) => path.endsWith('.node'))).toEqual([])
      await expect(stat(join(dir, 'node_modules/lmdb'))).rejects.toMatchObject({ code: 'ENOENT' })
    })

    it('names its classes as they were written: an error prints as KnobError, not as the bundle renamed it (_KnobError)', async () => {
      const script =
        "import { inspect } from 'node:util'\n" +
        "const entries = { ...(await import('@service-auth/mock')), ...(await import('@service-auth/mock/knobs')) }\n" +
        "console.log(Object.entries(entries).filter(([name, value]) => typeof value === 'function' && /^[A-Z]/.test(name) && value.name !== name).map(([name, value]) => name + ' is ' + value.name).join(', ') || 'all named')\n" +
        // Port 9 is a bad port: fetch refuses it at once, with no connection.
        "try { await new entries.KnobClient('http://127.0.0.1:9').settings() } catch (error) { console.log(inspect(error).split('\\n')[0]) }\n"
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir })
      expect(stdout.trim().split('\n')).toEqual(['all named', 'KnobError: the mock service at http://127.0.0.1:9 cannot be reached (bad port)'])
    })

    it('startMockService() works in memory', async () => {
      const script =
        "import { startMockService, TEST_KEYS } from '@service-auth/mock'\n" +
        'const service = await startMockService()\n' +
        "const res = await fetch(service.url + '/v1/entity/challenges', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ key: TEST_KEYS.signs }) })\n" +
        'console.log(res.status)\nawait service.close()\n'
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir })
      expect(stdout.trim()).toBe('201')
    })

    it('service-auth-mock --in-memory serves; with a data directory it says in one line that lmdb is missing, and names --in-memory', async () => {
      const child = spawn(process.execPath, [join(dir, 'node_modules/.bin/service-auth-mock'), '--port', '0', '--in-memory'], {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      try {
        const [first] = await once(createInterface({ input: child.stdout! }), 'line')
        const url = /^Service: (\S+)$/.exec(first)![1]
        expect((await fetch(`${url}/__knobs/challenges`)).status).toBe(200)
      } finally {
        child.kill()
      }
      const failed = await run(process.execPath, [join(dir, 'node_modules/.bin/service-auth-mock'), '--port', '0', '--data', join(dir, 'state')], {
        cwd: dir,
      }).catch((error) => error)
      expect(failed.code).toBe(1)
      expect(failed.stderr.trim().split('\n')).toEqual([expect.stringMatching(/lmdb.*--in-memory/)])
      // Refused before the directory is made: --export then names lmdb too, not a directory without state.
      await expect(stat(join(dir, 'state'))).rejects.toMatchObject({ code: 'ENOENT' })
      const exported = await run(
        process.execPath,
        [join(dir, 'node_modules/.bin/service-auth-mock'), '--data', join(dir, 'state'), '--export', join(dir, 'x.json')],
        {
          cwd: dir,
        },
      ).catch((error) => error)
      expect(exported.code).toBe(1)
      expect(exported.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(/^A data directory needs lmdb, which could not be loaded \(it is not installed\)/),
      ])
    })
  })
})

/** An installed package's README, the one npm shows. */
const installedReadme = (name: 'service-auth' | '@service-auth/mock') => readFile(join(project, 'node_modules', name, 'README.md'), 'utf8')

/**
 * The fenced code after each `<!-- checked: browser -->`, `<!-- checked: react -->` or
 * `<!-- run: name -->` comment in an installed package's README (service-auth's by default).
 */
async function readmeBlocks(marker: string, language = 'js', name: 'service-auth' | '@service-auth/mock' = 'service-auth'): Promise<string[]> {
  const readme = await installedReadme(name)
  const pattern = new RegExp(`<!-- ${marker} -->\\n\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g')
  return [...readme.matchAll(pattern)].map((match) => match[1]!)
}

describe('a fresh project that installs it', () => {
  const PAGE = `import { mount, scan, sweep, get, version, type Handle, type Options, type ServiceAuthEventMap } from 'service-auth'
import 'service-auth/style.css'
import 'service-auth/languages/de.js'
import 'service-auth/languages/pt-BR.js'
import 'service-auth/languages/all.js'
const el = document.querySelector<HTMLElement>('#login')!
const options: Options = { apiKey: 'k', imageKind: 'qrcode-large', authUrl: '/auth/controller', texts: { ready: 'Scan' } }
const handle: Handle = mount(el, options)
el.addEventListener('service-auth:success', (event) => event.detail.location?.toUpperCase())
document.addEventListener('service-auth:error', (event) => event.detail.reason.toUpperCase())
window.addEventListener('service-auth:ready', (event) => event.detail.expiresAt.toUpperCase())
const ready: ServiceAuthEventMap['service-auth:ready']['detail'] = { challengeId: 'c', expiresAt: 'e' }
// Typed for real, not any: a wrong use is an error.
// @ts-expect-error mount takes an element
mount('#login')
export const all = [handle, scan(document), sweep(), get(el), version.length, ready]
`
  const SERVER = `import { createClient, handleFetchRequest, verifyAuthToken, type Authentication, type Identity } from 'service-auth/server'
const client = createClient({ baseUrl: 'https://api.example', key: 'k', secret: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=' })
export const list: Promise<Identity[]> = client.identities.list({ limit: 10 })
export const confirmed: Promise<Authentication> = client.authenticate('ada', { challenge: 'c', otp: 'o' })
export const claims = verifyAuthToken('t', { secret: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=' }).then((c) => c.sessionId ?? c.identifier)
export const GET = (request: Request): Promise<Response> =>
  handleFetchRequest(request, { client, secret: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=', findUser: (id) => ({ id }), startSession: () => ({ location: '/', headers: { 'Set-Cookie': 'a=b' } }) })
// @ts-expect-error the identifier is a string
client.identities.get(7)
`
  const TESTING = `import type { Page } from '@playwright/test'
import { checkController, connectMockService, ControllerCheckError, readShownCode, startMockService, TEST_KEYS, TEST_SECRET, TestKitError, type ControllerCheckReport, type HeldRequest, type MockService, type MockServiceControls, type ShownCode } from '@service-auth/mock'
import { KnobClient, KnobError, type ListedChallenge } from '@service-auth/mock/knobs'
import { generateCredentials, memoryStore, startService, type ServiceHandle } from '@service-auth/mock/service'
export async function steps(page: Page): Promise<string> {
  const service: MockService = await startMockService({ testIdentity: 'ada@example.com' })
  await service.enrolPhone('ada@example.com')
  const shown: ShownCode = await service.signShownCode(page, 'ada@example.com', { timeout: 5000, widget: '#login' })
  await service.expireShownCode(page.mainFrame())
  await service.failNext({ status: 503, count: 2, match: 'create', retryAfter: 5 })
  const other = connectMockService({ url: service.url, key: TEST_KEYS.signs, secret: TEST_SECRET })
  // @ts-expect-error a connected service is not this process's to close
  other.close()
  // @ts-expect-error no such request kind
  await service.failNext({ status: 500, match: 'everything' })
  const shared: MockServiceControls = await connectMockService({ url: service.url, isolate: true })
  await shared.delayNext({ ms: 10, match: 'authenticate' })
  await shared.holdNext({ match: 'status' })
  const held: HeldRequest[] = await shared.held()
  const released: number = await shared.release()
  // @ts-expect-error without isolate, a key and its secret
  connectMockService({ url: service.url })
  const report: ControllerCheckReport = await checkController({ controller: 'http://127.0.0.1:3000/auth/controller', identity: 'ada@example.com', signedIn: 'http://127.0.0.1:3000/welcome', service: service.url, key: service.key, secret: service.secret })
  const failed: string[] = report.checks.filter((check) => check.outcome === 'fail').map((check) => check.fix ?? check.evidence)
  // @ts-expect-error the controller's URL is required
  await checkController({ identity: 'ada@example.com', service: service.url, key: service.key, secret: service.secret })
  const knobs = new KnobClient(service.url)
  const listed: ListedChallenge[] = await knobs.challenges({ key: service.key })
  // @ts-expect-error a failure names its status
  await knobs.fail({ match: 'create' })
  const { apiKey, apiSecret } = generateCredentials()
  const inProcess: ServiceHandle = await startService({ keys: [{ key: apiKey, secret: apiSecret }], knobs: true, store: memoryStore() })
  await inProcess.close()
  await service.close()
  return listed.length + String(new KnobError('x') instanceof TestKitError) + shown.challengeId + (await readShownCode(page)).widget.index + String(new TestKitError('x') instanceof Error) + held.length + released + failed.length + String(new ControllerCheckError('x') instanceof TestKitError)
}
`

  beforeAll(async () => {
    await writeFile(join(project, 'page.ts'), PAGE)
    await writeFile(join(project, 'server.ts'), SERVER)
    await writeFile(join(project, 'testing.ts'), TESTING)
    const prelude = 'declare const router: { push(url: string): void }\n'
    await writeFile(join(project, 'globals.d.ts'), prelude)
    for (const [index, block] of (await readmeBlocks('checked: browser')).entries()) await writeFile(join(project, `readme-${index}.js`), block)
    for (const name of ['controller-node', 'controller-fetch']) {
      const [block] = await readmeBlocks(`run: ${name}`)
      await writeFile(join(project, `${name}.js`), block!)
    }
    // The mock's Playwright example, type-checked strictly here as an editor would; run below. Its
    // playwright.config.ts by another name, or `npx playwright test` below would read it.
    const [playwright] = await readmeBlocks('run: playwright', 'ts', '@service-auth/mock')
    await writeFile(join(project, 'readme-playwright.ts'), playwright!)
    const [playwrightConfig] = await readmeBlocks('checked: playwright-config', 'ts', '@service-auth/mock')
    await writeFile(join(project, 'readme-playwright-config.ts'), playwrightConfig!)
    // The fixture of "Parallel tests", saved as the file its comment names, and a spec of the
    // shared mock that hands its service to the example's startApp, as the README says to.
    const [fixture] = await readmeBlocks('checked: playwright-fixture', 'ts', '@service-auth/mock')
    await writeFile(join(project, 'readme-fixtures.ts'), fixture!)
    await writeFile(join(project, 'readme-startapp.ts'), playwright!.replace('\nasync function startApp(', '\nexport async function startApp('))
    await writeFile(
      join(project, 'readme-shared.ts'),
      `import { expect, test } from './readme-fixtures.js'
import { startApp } from './readme-startapp.js'
test('Ada signs in on the shared mock', async ({ page, service }) => {
  await service.enrolPhone('ada@example.com')
  const app = await startApp(service, new Map([['ada@example.com', { name: 'Ada' }]]))
  await page.goto(app.url + '/login')
  await service.signShownCode(page, 'ada@example.com')
  await expect(page.getByRole('heading')).toHaveText('Signed in as Ada')
  app.close()
})
`,
    )
  })

  it("finds the READMEs' module examples to check and run", async () => {
    expect((await readmeBlocks('checked: browser')).length).toBeGreaterThanOrEqual(2)
    expect(await readmeBlocks('run: controller-node')).toHaveLength(1)
    expect(await readmeBlocks('run: controller-fetch')).toHaveLength(1)
    expect(await readmeBlocks('run: playwright', 'ts', '@service-auth/mock')).toHaveLength(1)
    expect(await readmeBlocks('checked: playwright-config', 'ts', '@service-auth/mock')).toHaveLength(1)
    expect(await readmeBlocks('checked: playwright-fixture', 'ts', '@service-auth/mock')).toHaveLength(1)
  })

  it.each([
    ['node16', { module: 'node16', moduleResolution: 'node16' }],
    ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
  ])("type-checks the page and server code (strict) and the README's examples (as JavaScript) under %s, library types included", async (name, resolution) => {
    const compilerOptions = {
      ...resolution,
      target: 'es2022',
      lib: ['es2022', 'dom', 'dom.iterable'],
      skipLibCheck: false,
      noEmit: true,
      typeRoots: [join(root, 'node_modules/@types')],
      types: ['node'],
    }
    // TypeScript code is checked strictly, with exactOptionalPropertyTypes as `tsc --init` turns it on (an
    // option set to `undefined` is then an error); the README's JavaScript as an editor checks a JS file.
    const configs = {
      [`tsconfig.${name}.json`]: { compilerOptions: { ...compilerOptions, strict: true, exactOptionalPropertyTypes: true }, include: ['*.ts'] },
      [`tsconfig.${name}-js.json`]: { compilerOptions: { ...compilerOptions, strict: false, allowJs: true, checkJs: true }, include: ['globals.d.ts', '*.js'] },
    }
    for (const [file, config] of Object.entries(configs)) {
      await writeFile(join(project, file), JSON.stringify(config))
      const result = await run(process.execPath, [tsc, '-p', join(project, file)]).catch((error) => error)
      expect(result.stdout ?? '', file).toBe('')
    }
  })

  it('declares the stylesheets and the CDN script as side effects, and nothing else', async () => {
    // The regression test for `"sideEffects": false`: esbuild and Vite keep a CSS import whatever
    // the package says (the bundle test below passes either way), webpack drops it unless named here.
    const { sideEffects } = JSON.parse(await readFile(join(project, 'node_modules/service-auth/package.json'), 'utf8'))
    const globs = (sideEffects as string[]).map((glob) => new RegExp('^' + glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*') + '$'))
    const declared = (path: string) => globs.some((glob) => glob.test('./' + path))
    const version = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).version
    for (const path of [
      'dist/service-auth.css',
      `dist/service-auth-${version}.css`,
      'dist/service-auth.js',
      `dist/service-auth-${version}.js`,
      'dist/service-auth.de.js',
      `dist/service-auth-${version}.de.js`,
      'dist/service-auth.pt-BR.js',
      'dist/service-auth.languages.js',
      `dist/service-auth-${version}.languages.js`,
    ])
      expect(declared(path), path).toBe(true)
    for (const path of ['dist/service-auth.mjs', 'dist/server.mjs']) expect(declared(path), path).toBe(false)
  })

  it('bundles the page for production with the stylesheet kept, and no global set', async () => {
    await writeFile(
      join(project, 'entry.js'),
      "import { mount } from 'service-auth'\nimport 'service-auth/style.css'\nmount(document.getElementById('login'))\n",
    )
    const result = await build({
      absWorkingDir: project,
      entryPoints: ['entry.js'],
      bundle: true,
      minify: true,
      outdir: 'out',
      write: false,
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'silent',
    })
    expect(result.warnings).toEqual([])
    const css = result.outputFiles.find((file) => file.path.endsWith('.css'))?.text ?? ''
    const shipped = await readFile(join(project, 'node_modules/service-auth/dist/service-auth.css'), 'utf8')
    expect(css.length).toBeGreaterThan(shipped.length * 0.9)
    expect(css).toContain('.sa')
    const js = result.outputFiles.find((file) => file.path.endsWith('.js'))!.text
    expect(js).toContain('service-auth:')
    // No global set: the module only calls the language packs' (self.ServiceAuthPickLanguage).
    expect(js).not.toMatch(/ServiceAuth\s*=[^=]/)
    expect(js).toContain('ServiceAuthPickLanguage')
    // Nothing of the test kit: the mock and its knobs stay in Node.
    expect(js).not.toContain('__knobs')
  })

  it('imports the module and every language pack in Node, as a server render of the page does, and nothing throws', async () => {
    // A framework that renders the page on the server (Next.js, say) evaluates its imports there,
    // where there is no window and no self.
    const { languages } = JSON.parse(await readFile(join(project, 'node_modules/service-auth/dist/manifest.json'), 'utf8'))
    const codes = (await readdir(join(project, 'node_modules/service-auth/dist'))).flatMap(
      (name) => /^service-auth\.([a-z]{2}(-[A-Z]{2})?)\.js$/.exec(name)?.[1] ?? [],
    )
    expect(codes.sort()).toEqual(Object.keys(languages))
    expect(codes.length).toBeGreaterThanOrEqual(40)
    const render = (imports: string[]) => `import { mount } from 'service-auth'
${imports.map((name) => `import 'service-auth/languages/${name}.js'`).join('\n')}
console.log(JSON.stringify({ mount: typeof mount, ready: Object.fromEntries(Object.values(globalThis.ServiceAuthTexts).map((pack) => [pack.lang, pack.ready])) }))`
    const each = JSON.parse((await run(process.execPath, ['--input-type=module', '-e', render(codes)], { cwd: project })).stdout)
    expect(each.mount).toBe('function')
    expect(Object.keys(each.ready)).toHaveLength(codes.length)
    expect(each.ready).toMatchObject({
      de: 'Mit der App scannen',
      'pt-PT': 'Leia com a aplicação',
      'pt-BR': 'Escaneie com o aplicativo',
      ar: 'امسح الرمز بالتطبيق',
    })
    // All of them at once, from the one file: the same packs.
    const all = JSON.parse((await run(process.execPath, ['--input-type=module', '-e', render(['all'])], { cwd: project })).stdout)
    expect(all).toEqual(each)
  })

  describe("the README's controllers, in Node, against the mock service", () => {
    let service: ServiceHandle
    const { apiKey: key, apiSecret: secret } = generateCredentials()
    const env = () => ({ ...process.env, SERVICE_URL: service.url, SERVICE_KEY: key, SERVICE_SECRET: secret })

    beforeAll(async () => {
      // test-signs signs as Eve here, whom the README's controllers do not know.
      service = await startService({ port: 0, keys: [{ key, secret }], knobs: true, testKeys: { identity: 'eve@example.com' } })
      await writeFile(
        join(project, 'serve-node.mjs'),
        "import { createServer } from 'node:http'\nimport { controller } from './controller-node.js'\n" +
          "const server = createServer(controller).listen(0, '127.0.0.1', () => console.log(server.address().port))\n",
      )
      await writeFile(
        join(project, 'call-fetch.mjs'),
        "import { GET } from './controller-fetch.js'\n" +
          "const res = await GET(new Request('https://shop.example/auth/controller', { headers: { 'X-Service-Auth': process.argv[2], 'X-Requested-With': 'XMLHttpRequest' } }))\n" +
          "console.log(JSON.stringify({ status: res.status, body: await res.json(), cookie: res.headers.get('set-cookie') }))\n",
      )
      await enrolAda()
    })
    afterAll(() => service?.close())

    /** Ada's phone signs a fresh challenge; the token the embed would hand to the controller. */
    async function signedToken(): Promise<string> {
      const created = await fetch(`${service.url}/v1/entity/challenges`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ key }),
      })
      const { id, pollingUrl } = await created.json()
      await new KnobClient(service.url).signChallenge(id, { identifier: 'ada@example.com' })
      return (await (await fetch(pollingUrl)).json()).token
    }

    /** Ada is enrolled by the integrator's back office, with the installed package's own client. */
    async function enrolAda(): Promise<void> {
      // Ada is enrolled by the integrator's back office, with the installed package's own client.
      const { stdout } = await run(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          "import { createClient } from 'service-auth/server'\nconst { SERVICE_URL: baseUrl, SERVICE_KEY: key, SERVICE_SECRET: secret } = process.env\nconst { enrollment } = await createClient({ baseUrl, key, secret }).enroll({ identifier: 'ada@example.com' })\nconsole.log(enrollment.id)",
        ],
        { cwd: project, env: env() },
      )
      const res = await fetch(`${service.url}/__knobs/devices`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ token: stdout.trim() }),
      })
      expect(res.status).toBe(201)
    }

    it('a CommonJS server require()s service-auth/server (Node 20.19+ loads the ES module), and its client checks the key', async () => {
      // A package of its own inside the project, "type": "commonjs": require() resolves from there as in a CommonJS app.
      const cjs = join(project, 'cjs-server')
      await mkdir(cjs)
      await writeFile(join(cjs, 'package.json'), JSON.stringify({ name: 'cjs-server', private: true, type: 'commonjs' }))
      await writeFile(
        join(cjs, 'index.js'),
        "const { createClient } = require('service-auth/server')\n" +
          'const { SERVICE_URL: baseUrl, SERVICE_KEY: key, SERVICE_SECRET: secret } = process.env\n' +
          "createClient({ baseUrl, key, secret }).check().then(() => console.log('checked'))\n",
      )
      const { stdout } = await run(process.execPath, ['index.js'], { cwd: cjs, env: env() })
      expect(stdout).toBe('checked\n')
    })

    it("node:http: bad tokens get 401 and the server lives on; the embed's XHR gets {location} and the session cookie; the challenge is consumed", async () => {
      const child = spawn(process.execPath, ['serve-node.mjs'], { cwd: project, env: env(), stdio: ['ignore', 'pipe', 'inherit'] })
      try {
        const [port] = await once(createInterface({ input: child.stdout! }), 'line')
        // A token whose sub holds a lone surrogate, well signed: once enough to end the process.
        const hostile = await new SignJWT({ jti: 'c', sub: 'ada@example.com\uD800', otp: 'o' })
          .setProtectedHeader({ alg: 'HS256' })
          .setIssuedAt()
          .setExpirationTime('1m')
          .sign(new Uint8Array(Buffer.from(secret, 'base64')))
        for (const bad of [hostile, 'x'.repeat(10_000), 'not-a-jwt']) {
          const refused = await fetch(`http://127.0.0.1:${port}/auth/controller`, { headers: { 'X-Service-Auth': bad, 'X-Requested-With': 'XMLHttpRequest' } })
          expect(refused.status).toBe(401)
        }
        const token = await signedToken()
        const headers = { 'X-Service-Auth': token, 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' }
        const res = await fetch(`http://127.0.0.1:${port}/auth/controller`, { headers })
        expect(res.status).toBe(200)
        expect(await res.json()).toEqual({ location: '/welcome' })
        expect(res.headers.get('set-cookie')).toMatch(/^session=[\w-]+; Path=\/; HttpOnly; Secure; SameSite=Lax$/)
        expect((await fetch(`http://127.0.0.1:${port}/auth/controller`, { headers })).status).toBe(401)
      } finally {
        child.kill()
      }
    })

    it("refuses a user its store does not know with 403 (test-signs signing as Eve), and the server's log says why, as the README shows", async () => {
      const created = await fetch(`${service.url}/v1/entity/challenges`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ key: TEST_KEYS.signs }),
      })
      const { id, pollingUrl } = await created.json()
      const signed = await fetch(`${service.url}/__knobs/challenges/${id}/sign`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ identifier: 'eve@example.com' }),
      })
      expect(signed.status).toBe(200)
      const { token } = await (await fetch(pollingUrl)).json()
      const { stdout, stderr } = await run(process.execPath, ['call-fetch.mjs', token], {
        cwd: project,
        env: { ...env(), SERVICE_KEY: TEST_KEYS.signs, SERVICE_SECRET: TEST_SECRET },
      })
      expect(JSON.parse(stdout)).toMatchObject({ status: 403, body: { detail: 'This user may not sign in here.' } })
      const [line] = /^```text\n(.*)\n```$/m.exec(await installedReadme('service-auth'))!.slice(1)
      expect(line).toBe('service-auth/server refused a sign-in (403, unknown-user): user eve@example.com not in your store: findUser returned nothing')
      expect(stderr.split('\n')).toContain(line)
    })

    it('Fetch API: a Request in, a Response out, with the session cookie', async () => {
      const token = await signedToken()
      const { stdout } = await run(process.execPath, ['call-fetch.mjs', token], { cwd: project, env: env() })
      expect(JSON.parse(stdout)).toEqual({ status: 200, body: { location: '/welcome' }, cookie: expect.stringMatching(/^session=[\w-]+; Path=\//) })
      expect(decodeJwt(token).sub).toBe('ada@example.com')
    })
  })

  describe('the test kit, from the tarball, in Chromium', () => {
    const children: ChildProcess[] = []
    afterAll(() => {
      // Each in a process group of its own, as a terminal runs a command: npx's child goes too.
      for (const child of children) {
        try {
          process.kill(-child.pid!, 'SIGKILL')
        } catch {
          // Gone already.
        }
      }
    })

    it('npx @service-auth/mock runs the same command', async () => {
      const { stdout } = await run('npx', ['@service-auth/mock', '--help'], { cwd: project })
      expect(stdout).toMatch(/^Usage: service-auth-mock \[options\]/)
    })

    it("npx service-auth-mock starts, and with test-signs a page built from service-auth's README's markup signs in through its Express controller", async () => {
      // As a new user runs it: test-signs signs as test@example.com, whom the README's controller lets in with that key.
      const mock = spawn('npx', ['service-auth-mock', '--port', '0'], {
        cwd: project,
        stdio: ['ignore', 'pipe', 'inherit'],
        detached: true,
      })
      children.push(mock)
      const lines: string[] = []
      const output = createInterface({ input: mock.stdout! })
      await new Promise<void>((resolve) =>
        output.on('line', (line) => {
          lines.push(line)
          if (line === 'Ctrl-C stops it.') resolve()
        }),
      )
      const url = /^Service: (http:\/\/127\.0\.0\.1:\d+)$/.exec(lines[0]!)![1]!
      expect(lines).toContain(`SERVICE_URL=${url}`)
      const testSecret = /^Test keys, each with the secret (\S+):/.exec(lines.find((line) => line.startsWith('Test keys'))!)![1]!
      // The whole interface and the knobs.
      expect((await fetch(`${url}/__knobs/challenges`)).status).toBe(200)
      expect((await fetch(`${url}/v1/entity/identities`)).status).toBe(401)

      // The Installation snippet as it stands, the CDN's files served from the package, the mock at its port.
      const [snippet] = /```html\n(<link rel="stylesheet"[\s\S]*?)```/.exec(await installedReadme('service-auth'))!.slice(1)
      const markup = snippet!.replaceAll('https://cdn.service-auth.example/', '/cdn/').replace('http://127.0.0.1:8081', url)
      expect(markup).toContain(`data-service-key="test-signs"`)
      await writeFile(join(project, 'login.html'), `<!doctype html>\n<html lang="en">\n<title>Sign in</title>\n${markup}</html>\n`)
      await writeFile(
        join(project, 'serve-express.mjs'),
        "import express from 'express'\nimport { controller } from './controller-node.js'\n" +
          "const app = express()\napp.use('/cdn', express.static('node_modules/service-auth/dist'))\n" +
          "app.get('/login', (req, res) => res.sendFile('login.html', { root: '.' }))\napp.get('/auth/controller', controller)\n" +
          "app.get('/welcome', (req, res) => res.type('html').send('<h1>Welcome</h1>'))\n" +
          "const server = app.listen(0, '127.0.0.1', () => console.log(server.address().port))\n",
      )
      const app = spawn(process.execPath, ['serve-express.mjs'], {
        cwd: project,
        env: { ...process.env, SERVICE_URL: url, SERVICE_KEY: 'test-signs', SERVICE_SECRET: testSecret },
        stdio: ['ignore', 'pipe', 'inherit'],
        detached: true,
      })
      children.push(app)
      const [port] = await once(createInterface({ input: app.stdout! }), 'line')

      const browser = await chromium.launch(chromiumLaunchOptions())
      try {
        const page = await browser.newPage()
        await page.goto(`http://127.0.0.1:${port}/login`)
        await page.waitForURL(`http://127.0.0.1:${port}/welcome`)
        expect(await page.locator('h1').textContent()).toBe('Welcome')
      } finally {
        await browser.close()
      }
      // Ctrl-C (to the process group, as a terminal sends it) stops it cleanly: it says so, and its output ends.
      const closed = once(output, 'close')
      process.kill(-mock.pid!, 'SIGINT')
      await closed
      expect(lines.at(-1)).toBe('Stopped.')
    }, 120_000)

    it("the Playwright test of @service-auth/mock's README, saved as it says and run as written, signs in with startMockService and signShownCode", async () => {
      const [example] = await readmeBlocks('run: playwright', 'ts', '@service-auth/mock')
      // Nothing beside it: the README's test brings its own login page and controller.
      await mkdir(join(project, 'tests'), { recursive: true })
      await writeFile(join(project, 'tests/sign-in.spec.ts'), example!)
      // Only where Chromium is, and no HTML report: the README's reader needs no config.
      await writeFile(
        join(project, 'playwright.config.mjs'),
        "export default { testDir: 'tests', reporter: 'list', workers: 1, use: { browserName: 'chromium', headless: true, launchOptions: JSON.parse(process.env.LAUNCH_OPTIONS) } }\n",
      )
      const { stdout } = await run('npx', ['playwright', 'test'], {
        cwd: project,
        env: { ...process.env, CI: '1', LAUNCH_OPTIONS: JSON.stringify(chromiumLaunchOptions()) },
      })
      expect(stdout).toMatch(/✓ .*Ada signs in with her phone/)
      expect(stdout).toMatch(/\b1 passed\b/)
    }, 120_000)
  })
})

describe('the React component, service-auth/react', () => {
  const PAGE = `import { useRouter } from './router.js'
import { ServiceAuth, type ServiceAuthProps } from 'service-auth/react'
import { mount } from 'service-auth'
import 'service-auth/style.css'
export function Login() {
  const router = useRouter()
  return (
    <ServiceAuth
      apiKey="pk_live_123"
      authUrl="/auth/controller"
      api="https://api.service-auth.example"
      texts={{ ready: 'Scan' }}
      onReady={({ challengeId, expiresAt }) => console.log(challengeId.length, expiresAt.length)}
      onSuccess={({ location }) => (router.push(location ?? '/'), false)}
      onError={({ reason }) => reason.toUpperCase()}
      style={{ margin: 8 }}
    />
  )
}
// @ts-expect-error the API key is required
export const missing = <ServiceAuth authUrl="/auth/controller" api="https://api.service-auth.example" />
// @ts-expect-error so is the service's URL
export const noService = <ServiceAuth apiKey="pk_live_123" authUrl="/auth/controller" />
// @ts-expect-error an error's reason is typed
export const typed: ServiceAuthProps['onError'] = ({ reason }) => reason === 'nonsense'
export const both = [mount]
`

  it('ships as an ES module with its types, and installs no React for pages that do not use it', async () => {
    expect(packed).toContain('dist/react.mjs')
    expect(packed).toContain('dist/types/react.d.ts')
    // React is an optional peer: the tarball's install above brought none.
    await expect(readFile(join(project, 'node_modules/react/package.json'))).rejects.toMatchObject({ code: 'ENOENT' })
  })

  describe('in a project with React 19', () => {
    beforeAll(async () => {
      await run('npm', ['install', 'react@19', 'react-dom@19', '@types/react@19', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], {
        cwd: project,
      })
      await writeFile(join(project, 'router.ts'), 'export const useRouter = () => ({ push(url: string) { return url } })\n')
      await writeFile(join(project, 'login.tsx'), PAGE)
      await writeFile(join(project, 'react-globals.d.ts'), 'declare const router: { push(url: string): void }\n')
      for (const [index, block] of (await readmeBlocks('checked: react', 'tsx')).entries()) await writeFile(join(project, `readme-react-${index}.tsx`), block)
    })

    it("finds the README's React examples to check", async () => {
      expect((await readmeBlocks('checked: react', 'tsx')).length).toBeGreaterThanOrEqual(1)
    })

    it.each([
      ['node16', { module: 'node16', moduleResolution: 'node16' }],
      ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
      ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
    ])("type-checks a page with the component and the README's React examples (strict, JSX) under %s, library types included", async (name, resolution) => {
      const compilerOptions = {
        ...resolution,
        target: 'es2022',
        lib: ['es2022', 'dom', 'dom.iterable'],
        jsx: 'react-jsx',
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        types: [],
      }
      const file = `tsconfig.react-${name}.json`
      await writeFile(join(project, file), JSON.stringify({ compilerOptions, files: ['login.tsx', 'react-globals.d.ts'], include: ['readme-react-*.tsx'] }))
      const result = await run(process.execPath, [tsc, '-p', join(project, file)]).catch((error) => error)
      expect(result.stdout ?? '', file).toBe('')
    })

    it('bundles a page that uses both the component and the ES module with one copy of the widget', async () => {
      await writeFile(
        join(project, 'app.jsx'),
        "import { createRoot } from 'react-dom/client'\nimport { ServiceAuth } from 'service-auth/react'\nimport { scan } from 'service-auth'\nscan()\ncreateRoot(document.getElementById('root')).render(<ServiceAuth apiKey=\"k\" authUrl=\"/auth/controller\" />)\n",
      )
      const result = await build({
        absWorkingDir: project,
        entryPoints: ['app.jsx'],
        bundle: true,
        minify: true,
        jsx: 'automatic',
        outdir: 'out-react',
        write: false,
        define: { 'process.env.NODE_ENV': '"production"' },
        logLevel: 'silent',
      })
      expect(result.warnings).toEqual([])
      const js = result.outputFiles.find((file) => file.path.endsWith('.js'))!.text
      expect(js.split('/v1/entity/challenges').length - 1).toBe(1)
      expect(js).toContain('data-service-auth')
    })
  })

  describe('in a project with React 18', () => {
    let react18: string

    beforeAll(async () => {
      react18 = join(work, 'consumer-react-18')
      await mkdir(react18)
      await writeFile(join(react18, 'package.json'), JSON.stringify({ name: 'consumer-react-18', private: true, type: 'module' }))
      await run('npm', ['install', tarball, 'react@18', 'react-dom@18', '@types/react@18', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], {
        cwd: react18,
      })
      await writeFile(join(react18, 'router.ts'), 'export const useRouter = () => ({ push(url: string) { return url } })\n')
      await writeFile(join(react18, 'login.tsx'), PAGE)
    })

    it('type-checks the same page (strict, JSX, nodenext)', async () => {
      const compilerOptions = {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        lib: ['es2022', 'dom', 'dom.iterable'],
        jsx: 'react-jsx',
        strict: true,
        skipLibCheck: false,
        noEmit: true,
        types: [],
      }
      await writeFile(join(react18, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['login.tsx'] }))
      const result = await run(process.execPath, [tsc, '-p', join(react18, 'tsconfig.json')]).catch((error) => error)
      expect(result.stdout ?? '').toBe('')
    })

    it("renders on the server in Node with React 18's react-dom/server, the widget's place held", async () => {
      const script =
        "import { createElement } from 'react'\nimport { renderToString } from 'react-dom/server'\nimport { ServiceAuth } from 'service-auth/react'\n" +
        "console.log(renderToString(createElement(ServiceAuth, { apiKey: 'k', authUrl: '/auth/controller', className: 'login' })))\n"
      const { stdout, stderr } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: react18 })
      expect(stdout.trim()).toBe('<div data-service-auth="" class="login"></div>')
      expect(stderr).toBe('')
    })
  })
})
