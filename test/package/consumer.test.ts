// The package as an integrator installs it: `npm pack` (which builds), publint and
// arethetypeswrong on the tarball, then a fresh project that installs the tarball, type-checks a
// page and the README's module examples under node16 and bundler, bundles the page for
// production (the stylesheet import must survive), and runs the README's controller examples in
// Node against the mock service.
import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateCredentials } from '../../demo/common/credentials.ts'
import { startService, type ServiceHandle } from '../../demo/service/server.ts'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))
const bin = (name: string) => join(root, 'node_modules/.bin', name)
const tsc = join(root, 'node_modules/typescript/bin/tsc')

let work: string
let project: string
let tarball: string
let packed: string[]

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'service-auth-consumer-'))
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, maxBuffer: 16 << 20 })
  const [info] = JSON.parse(stdout.slice(stdout.indexOf('[')))
  tarball = join(work, info.filename)
  packed = info.files.map((file: { path: string }) => file.path)

  project = join(work, 'consumer')
  await mkdir(project)
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
  // Its one dependency, jose, comes from npm's cache (filled by `npm ci`) or the registry.
  await run('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts'], { cwd: project })
})
afterAll(() => rm(work, { recursive: true, force: true }))

describe('the tarball', () => {
  it('holds the built files, README, LICENSE and package.json, and nothing else: no sources, no maps', () => {
    const outside = packed.filter((path) => !path.startsWith('dist/') && !['README.md', 'LICENSE', 'package.json'].includes(path))
    expect(outside).toEqual([])
    expect(packed.filter((path) => path.endsWith('.map'))).toEqual([])
    for (const file of ['dist/service-auth.mjs', 'dist/service-auth.js', 'dist/service-auth.css', 'dist/service-auth.de.js', 'dist/server.mjs', 'dist/types/index.d.ts']) expect(packed).toContain(file)
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
    // esm-only: the package has no CommonJS entry, so require() from CJS and node10 are out of scope.
    // (It exits non-zero on a problem; the JSON lists the ignored resolutions' findings too.)
    const { stdout } = await run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'json'], { maxBuffer: 16 << 20 })
    const { problems = {} } = JSON.parse(stdout.slice(stdout.indexOf('{')))
    const counted = Object.values(problems as Record<string, { resolutionKind?: string }[]>)
      .flat()
      .filter((problem) => !['node10', 'node16-cjs'].includes(problem.resolutionKind ?? ''))
    expect(counted).toEqual([])
  })
})

/** The fenced code after each `<!-- checked: browser -->` or `<!-- run: name -->` comment in the README. */
async function readmeBlocks(marker: string): Promise<string[]> {
  const readme = await readFile(join(root, 'README.md'), 'utf8')
  const pattern = new RegExp(`<!-- ${marker} -->\\n\`\`\`js\\n([\\s\\S]*?)\`\`\``, 'g')
  return [...readme.matchAll(pattern)].map((match) => match[1]!)
}

describe('a fresh project that installs it', () => {
  const PAGE = `import { mount, scan, sweep, get, version, type Handle, type Options, type ServiceAuthEventMap } from 'service-auth'
import 'service-auth/style.css'
import 'service-auth/languages/de.js'
const el = document.querySelector<HTMLElement>('#login')!
const options: Options = { apiKey: 'k', authUrl: '/auth/controller', imageKind: 'qrcode-standard', texts: { ready: 'Scan' } }
const handle: Handle = mount(el, options)
el.addEventListener('service-auth:success', (event) => event.detail.location?.toUpperCase() ?? event.detail.path?.toUpperCase())
document.addEventListener('service-auth:error', (event) => event.detail.reason.toUpperCase() + (event.detail.retryAfter?.toFixed() ?? ''))
// @ts-expect-error the API key option is apiKey, as the React component names it
export const renamed: Options = { key: 'k' }
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

  beforeAll(async () => {
    await writeFile(join(project, 'page.ts'), PAGE)
    await writeFile(join(project, 'server.ts'), SERVER)
    const prelude = 'declare const router: { push(url: string): void }\n'
    await writeFile(join(project, 'globals.d.ts'), prelude)
    for (const [index, block] of (await readmeBlocks('checked: browser')).entries()) await writeFile(join(project, `readme-${index}.js`), block)
    for (const name of ['controller-node', 'controller-fetch']) {
      const [block] = await readmeBlocks(`run: ${name}`)
      await writeFile(join(project, `${name}.js`), block!)
    }
  })

  it('finds the README\'s module examples to check and run', async () => {
    expect((await readmeBlocks('checked: browser')).length).toBeGreaterThanOrEqual(2)
    expect(await readmeBlocks('run: controller-node')).toHaveLength(1)
    expect(await readmeBlocks('run: controller-fetch')).toHaveLength(1)
  })

  it.each([
    ['node16', { module: 'node16', moduleResolution: 'node16' }],
    ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }],
  ])('type-checks the page and server code (strict) and the README\'s examples (as JavaScript) under %s, library types included', async (name, resolution) => {
    const compilerOptions = {
      ...resolution,
      target: 'es2022',
      lib: ['es2022', 'dom', 'dom.iterable'],
      skipLibCheck: false,
      noEmit: true,
      typeRoots: [join(root, 'node_modules/@types')],
      types: ['node'],
    }
    // TypeScript code is checked strictly; the README's JavaScript as an editor checks a JS file.
    const configs = {
      [`tsconfig.${name}.json`]: { compilerOptions: { ...compilerOptions, strict: true }, include: ['*.ts'] },
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
    for (const path of ['dist/service-auth.css', `dist/service-auth-${version}.css`, 'dist/service-auth.js', `dist/service-auth-${version}.js`, 'dist/service-auth.de.js', `dist/service-auth-${version}.de.js`]) expect(declared(path), path).toBe(true)
    for (const path of ['dist/service-auth.mjs', 'dist/server.mjs']) expect(declared(path), path).toBe(false)
  })

  it('bundles the page for production with the stylesheet kept, and no global set', async () => {
    await writeFile(join(project, 'entry.js'), "import { mount } from 'service-auth'\nimport 'service-auth/style.css'\nmount(document.getElementById('login'))\n")
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
    // No global set: the module only reads the language packs' (self.ServiceAuthTexts).
    expect(js).not.toMatch(/ServiceAuth\s*=[^=]/)
    expect(js).toContain('ServiceAuthTexts')
  })

  describe('the README\'s controllers, in Node, against the mock service', () => {
    let service: ServiceHandle
    const { apiKey: key, apiSecret: secret } = generateCredentials()
    const env = () => ({ ...process.env, SERVICE_URL: service.url, SERVICE_KEY: key, SERVICE_SECRET: secret })

    beforeAll(async () => {
      service = await startService({ port: 0, keys: [{ key, secret }], knobs: true })
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
    })
    afterAll(() => service?.close())

    /** Ada's phone signs a fresh challenge; the token the embed would hand to the controller. */
    async function signedToken(): Promise<string> {
      const knob = (path: string, body: unknown) =>
        fetch(`${service.url}/__knobs/${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
      const created = await fetch(`${service.url}/v1/entity/challenges`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ key }) })
      const { id, pollingUrl } = await created.json()
      expect((await knob(`challenges/${id}/sign`, { identifier: 'ada@example.com' })).status).toBe(200)
      return (await (await fetch(pollingUrl)).json()).token
    }

    beforeAll(async () => {
      // Ada is enrolled by the integrator's back office, with the installed package's own client.
      const { stdout } = await run(
        process.execPath,
        ['--input-type=module', '-e', "import { createClient } from 'service-auth/server'\nconst { SERVICE_URL: baseUrl, SERVICE_KEY: key, SERVICE_SECRET: secret } = process.env\nconst { enrollment } = await createClient({ baseUrl, key, secret }).enroll({ identifier: 'ada@example.com' })\nconsole.log(enrollment.id)"],
        { cwd: project, env: env() },
      )
      const res = await fetch(`${service.url}/__knobs/devices`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: stdout.trim() }) })
      expect(res.status).toBe(201)
    })

    it('node:http: the embed\'s XHR gets {location} and the session cookie; the challenge is consumed', async () => {
      const child = spawn(process.execPath, ['serve-node.mjs'], { cwd: project, env: env(), stdio: ['ignore', 'pipe', 'inherit'] })
      try {
        const [port] = await once(createInterface({ input: child.stdout! }), 'line')
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

    it('Fetch API: a Request in, a Response out, with the session cookie', async () => {
      const token = await signedToken()
      const { stdout } = await run(process.execPath, ['call-fetch.mjs', token], { cwd: project, env: env() })
      expect(JSON.parse(stdout)).toEqual({ status: 200, body: { location: '/welcome' }, cookie: expect.stringMatching(/^session=[\w-]+; Path=\//) })
      expect(decodeJwt(token).sub).toBe('ada@example.com')
    })
  })
})
