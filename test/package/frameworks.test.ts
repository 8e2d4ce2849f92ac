// The framework bindings as integrators install them (issue 29): `npm pack` of both workspaces,
// then a fresh project per framework, each type-checked by that framework's own checker from the
// tarball, with the service-auth README's framework snippets: tsc for the element in plain TypeScript, React 19,
// Next.js, Solid and Angular; vue-tsc for .vue files; svelte-check for .svelte files and a
// SvelteKit endpoint. Each check passes with no warning, and a deliberately wrong handler fails
// it. vue-tsc and svelte-check load TypeScript's JavaScript API, which TypeScript 7 (the
// repository's) does not have: their projects install TypeScript 5, as an integrator's would.
// Then Vue, Svelte 5 (SvelteKit) and plain HTML pages, built from the tarballs as their users
// build them, sign in against the mock (`service-auth-mock` from its tarball) with the test key
// test-signs, in Chromium; and so does every snippet of that README for the browser (issue 33):
// the ES module's, the element's (as a module and from the CDN), React's, Next.js's (its router
// stood in for), Vue's, Svelte's, SvelteKit's controller, Angular's (compiled in the page, JIT)
// and Solid's (through solid-js/h, the JSX runtime that needs no Babel), each built from the
// tarball with the README's placeholders filled in as a reader trying it against the mock would.
// (The CDN snippet of Installation and the controllers' snippets run in consumer.test.ts.)
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { chromium, type Browser, type Page } from '@playwright/test'
import { build as esbuild, type BuildOptions } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumLaunchOptions } from '../../e2e/chromium.js'
import { freePort } from '../../e2e/processes.js'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))
const tsc = join(root, 'node_modules/typescript/bin/tsc')
const INSTALL = ['--no-audit', '--no-fund', '--prefer-offline']
/** The TypeScript that vue-tsc and svelte-check run on (they need its JavaScript API). */
const TYPESCRIPT_5 = 'typescript@5'
/** The vue-tsc checked besides the current one (installed in a folder of its own, beside the project). */
const OLDER_VUE_TSC = 'vue-tsc@3.2'
/** What root's node_modules holds of a package: its version, so that the projects test what the repository does. */
const ours = async (name: string) => `${name}@${JSON.parse(await readFile(join(root, 'node_modules', name, 'package.json'), 'utf8')).version}`

let work: string
let tarball: string
let mockTarball: string
let browser: Browser | undefined
const children: ChildProcess[] = []

/** A new directory with a package.json, for a fresh project. */
async function freshProject(name: string): Promise<string> {
  const dir = join(work, name)
  await mkdir(dir, { recursive: true })
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }))
  return dir
}

/** Runs a command in `cwd`; what it printed and its exit code, without throwing. */
async function check(cwd: string, file: string, args: string[]): Promise<{ code: number; output: string }> {
  const result = await run(process.execPath, [file, ...args], { cwd, maxBuffer: 16 << 20 }).then(
    (done) => ({ code: 0, stdout: done.stdout, stderr: done.stderr }),
    (error) => ({ code: (error.code as number) ?? 1, stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  )
  return { code: result.code, output: (result.stdout + result.stderr).trim() }
}

/** The fenced code after each `<!-- checked: name -->` in packages/service-auth/README.md. */
async function snippets(name: string, language: string): Promise<string[]> {
  const text = await readFile(join(root, 'packages/service-auth/README.md'), 'utf8')
  const pattern = new RegExp(`<!-- checked: ${name} -->\\n\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g')
  const found = [...text.matchAll(pattern)].map((match) => match[1]!)
  expect(found.length, `the service-auth README has a ${name} snippet`).toBeGreaterThan(0)
  return found
}

/** Starts `node args…` in `cwd` in a process group of its own (so that it goes with its children), waiting for a line that `ready` matches. */
async function start(cwd: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<RegExpExecArray> {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'], detached: true })
  children.push(child)
  for await (const line of createInterface({ input: child.stdout! })) {
    const match = ready.exec(line)
    if (match) {
      child.stdout!.resume()
      return match
    }
  }
  throw new Error(`${args.join(' ')} exited (${child.exitCode}) before it said it was ready`)
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'service-auth-frameworks-'))
  const { stdout } = await run('npm', ['pack', '--workspace', 'service-auth', '--workspace', '@service-auth/mock', '--json', '--pack-destination', work], {
    cwd: root,
    maxBuffer: 16 << 20,
  })
  const infos = JSON.parse(stdout.slice(stdout.indexOf('['))) as { name: string; filename: string }[]
  tarball = join(work, infos.find((info) => info.name === 'service-auth')!.filename)
  mockTarball = join(work, infos.find((info) => info.name === '@service-auth/mock')!.filename)
}, 180_000)

afterAll(async () => {
  for (const child of children) {
    try {
      process.kill(-child.pid!, 'SIGKILL')
    } catch {
      // Gone already.
    }
  }
  await browser?.close()
  await rm(work, { recursive: true, force: true })
})

describe('the element in plain TypeScript, with no framework installed', () => {
  let dir: string
  beforeAll(async () => {
    dir = await freshProject('element-only')
    await run('npm', ['install', tarball, ...INSTALL, '--ignore-scripts'], { cwd: dir })
    for (const [index, block] of (await snippets('element', 'ts')).entries()) await writeFile(join(dir, `element-${index}.ts`), block)
    await writeFile(
      join(dir, 'page.ts'),
      `import { ServiceAuthElement, type ServiceAuthElementEventMap } from 'service-auth/element'
const el: ServiceAuthElement = document.createElement('service-auth')
el.addEventListener('service-auth-ready', (event) => event.detail.expiresAt.toUpperCase())
document.addEventListener('service-auth-success', (event) => event.detail.path?.toUpperCase())
const error: ServiceAuthElementEventMap['service-auth-error'] = new CustomEvent('service-auth-error', { detail: { reason: 'network', status: 0 } })
export const all = [el.state, el.start(), el.stop(), el.apiKey, error]
`,
    )
    await writeFile(
      join(dir, 'wrong.ts'),
      "import 'service-auth/element'\ndocument.querySelector('service-auth')!.addEventListener('service-auth-error', (event) => event.detail.location)\n",
    )
  }, 180_000)

  const config = (files: string[]) => ({
    compilerOptions: {
      module: 'nodenext',
      moduleResolution: 'nodenext',
      target: 'es2022',
      lib: ['es2022', 'dom', 'dom.iterable'],
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      types: [],
    },
    files,
  })

  it('type-checks the snippets and a page, library types included (none of React, Vue, Svelte or Solid read)', async () => {
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(config(['element-0.ts', 'page.ts'])))
    expect(await check(dir, tsc, ['-p', 'tsconfig.json'])).toEqual({ code: 0, output: '' })
  })

  it('fails on a wrong handler: an error event has no location', async () => {
    await writeFile(join(dir, 'tsconfig.wrong.json'), JSON.stringify(config(['wrong.ts'])))
    const { code, output } = await check(dir, tsc, ['-p', 'tsconfig.wrong.json'])
    expect(code).not.toBe(0)
    expect(output).toMatch(/wrong\.ts\(2,\d+\): error TS2339: Property 'location' does not exist/)
  })

  it('imports in Node (a server render) without a DOM: defines nothing, throws nothing', async () => {
    const script =
      "import { ServiceAuthElement } from 'service-auth/element'\nimport 'service-auth/element/vue'\nconsole.log(typeof ServiceAuthElement, typeof customElements)\n"
    const { stdout, stderr } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: dir })
    expect(stdout.trim()).toBe('function undefined')
    expect(stderr).toBe('')
  })
})

describe('React 19 and Next.js: the component and the element, with tsc', () => {
  let dir: string
  const config = (files: string[]) => ({
    compilerOptions: {
      module: 'esnext',
      moduleResolution: 'bundler',
      target: 'es2022',
      lib: ['es2022', 'dom', 'dom.iterable'],
      jsx: 'react-jsx',
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      types: [],
    },
    files,
  })

  beforeAll(async () => {
    dir = await freshProject('react-19')
    await run('npm', ['install', tarball, 'react@19', 'react-dom@19', '@types/react@19', ...INSTALL, '--ignore-scripts'], { cwd: dir })
    for (const [index, block] of (await snippets('react', 'tsx')).entries()) await writeFile(join(dir, `react-${index}.tsx`), block)
    for (const [index, block] of (await snippets('next', 'tsx')).entries()) await writeFile(join(dir, `next-${index}.tsx`), block)
    // Next.js's own types are not what is checked here: a stand-in for the one hook the snippet uses.
    await writeFile(join(dir, 'next-navigation.d.ts'), "declare module 'next/navigation' {\n  export function useRouter(): { push(href: string): void }\n}\n")
    // The README's first React snippet routes with the app's own router, which it does not define.
    await writeFile(join(dir, 'react-globals.d.ts'), 'declare const router: { push(url: string): void }\n')
    await writeFile(
      join(dir, 'wrong.tsx'),
      'import \'service-auth/element/react\'\nimport { ServiceAuth } from \'service-auth/react\'\nexport const wrong = <service-auth api-key="k" auth-url="/a" api="https://api.example" onservice-auth-ready={(event) => event.detail.location} />\n// No api, which is required\nexport const missing = <service-auth api-key="k" auth-url="/a" />\nexport const component = <ServiceAuth apiKey="k" authUrl="/a" />\n',
    )
  }, 180_000)

  it('type-checks the snippets (strict, JSX, library types included)', async () => {
    const files = [
      ...(await snippets('react', 'tsx')).map((_, index) => `react-${index}.tsx`),
      ...(await snippets('next', 'tsx')).map((_, index) => `next-${index}.tsx`),
      'next-navigation.d.ts',
      'react-globals.d.ts',
    ]
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(config(files)))
    expect(await check(dir, tsc, ['-p', 'tsconfig.json'])).toEqual({ code: 0, output: '' })
  })

  it('fails on a wrong handler, and without api, of the element and of the component', async () => {
    await writeFile(join(dir, 'tsconfig.wrong.json'), JSON.stringify(config(['wrong.tsx'])))
    const { code, output } = await check(dir, tsc, ['-p', 'tsconfig.wrong.json'])
    expect(code).not.toBe(0)
    expect(output).toMatch(/wrong\.tsx\(3,\d+\): error TS2339: Property 'location' does not exist/)
    expect(output).toMatch(/wrong\.tsx\(5,\d+\): error TS2322: [^\n]*\n[^\n]*Property 'api' is missing/)
    expect(output).toMatch(/wrong\.tsx\(6,\d+\): error TS2741: Property 'api' is missing/)
  })

  it("signs in with each of the README's React and Next.js snippets, built from the tarball", async () => {
    const { url } = await startMock()
    // Next.js's router, as the snippet uses it: the page's own navigation stands in for it.
    await writeFile(join(dir, 'next-navigation.mjs'), 'export const useRouter = () => ({ push: (path) => location.assign(path) })\n')
    const blocks = [
      ...(await snippets('react', 'tsx')).map((code, index) => [`react-${index}`, code]),
      ...(await snippets('next', 'tsx')).map((code, index) => [`next-${index}`, code]),
    ]
    for (const [name, code] of blocks) {
      await writeFile(join(dir, `run-${name}.tsx`), tried(code!, url))
      await bundle(
        dir,
        name!,
        `import { createRoot } from 'react-dom/client'
import * as snippet from './run-${name}.js'
// The app's own router, which the first snippet uses and the element's takes as a prop: here, the page's navigation.
const router = { push: (path: string) => location.assign(path) }
Object.assign(window, { router })
const [Snippet] = Object.values(snippet) as ((props: Record<string, unknown>) => React.ReactNode)[]
createRoot(document.getElementById('root')!).render(<Snippet navigate={router.push} apiKey="test-signs" api=${JSON.stringify(url)} />)
`,
        { alias: { 'next/navigation': join(dir, 'next-navigation.mjs') } },
      )
      // The snippet with a widget that waits: its button starts it.
      const click = code!.includes('autoStart={false}') ? 'Sign in with the app' : undefined
      await signsIn(await page(name!, '<h1>Sign in</h1>\n<div id="root"></div>'), 'Signed in as Ada', { click })
    }
  }, 180_000)
})

describe('Solid and Angular, through the element, with tsc', () => {
  let dir: string
  beforeAll(async () => {
    dir = await freshProject('solid-angular')
    const angular = ['core', 'common', 'compiler', 'platform-browser'].map((name) => `@angular/${name}@22`)
    await run('npm', ['install', tarball, 'solid-js@1', ...angular, 'rxjs@7', ...INSTALL, '--ignore-scripts', '--legacy-peer-deps'], { cwd: dir })
    await writeFile(join(dir, 'solid.tsx'), (await snippets('solid', 'tsx'))[0]!)
    await writeFile(join(dir, 'angular.ts'), (await snippets('angular', 'ts'))[0]!)
    await writeFile(
      join(dir, 'wrong-solid.tsx'),
      'import \'service-auth/element/solid\'\nexport const wrong = <service-auth api-key="k" auth-url="/a" api="https://api.example" on:service-auth-ready={(event) => event.detail.location} />\n',
    )
  }, 240_000)

  const solid = (files: string[]) => ({
    compilerOptions: {
      module: 'esnext',
      moduleResolution: 'bundler',
      target: 'es2022',
      lib: ['es2022', 'dom', 'dom.iterable'],
      jsx: 'preserve',
      jsxImportSource: 'solid-js',
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      types: [],
    },
    files,
  })

  it('type-checks the Solid snippet, and fails on a wrong handler', async () => {
    await writeFile(join(dir, 'tsconfig.solid.json'), JSON.stringify(solid(['solid.tsx'])))
    expect(await check(dir, tsc, ['-p', 'tsconfig.solid.json'])).toEqual({ code: 0, output: '' })
    await writeFile(join(dir, 'tsconfig.wrong.json'), JSON.stringify(solid(['wrong-solid.tsx'])))
    const { code, output } = await check(dir, tsc, ['-p', 'tsconfig.wrong.json'])
    expect(code).not.toBe(0)
    expect(output).toMatch(/wrong-solid\.tsx\(2,\d+\): error TS2339: Property 'location' does not exist/)
  })

  it("type-checks the Angular snippet's code (its template is Angular's compiler's to check), and fails on a wrong handler", async () => {
    const compilerOptions = {
      module: 'esnext',
      moduleResolution: 'bundler',
      target: 'es2022',
      lib: ['es2022', 'dom', 'dom.iterable'],
      strict: true,
      experimentalDecorators: true,
      skipLibCheck: true,
      noEmit: true,
      types: [],
    }
    await writeFile(join(dir, 'tsconfig.angular.json'), JSON.stringify({ compilerOptions, files: ['angular.ts'] }))
    expect(await check(dir, tsc, ['-p', 'tsconfig.angular.json'])).toEqual({ code: 0, output: '' })
    // A wrong handler: the snippet's, reading what an error event does not carry.
    await writeFile(join(dir, 'wrong-angular.ts'), (await snippets('angular', 'ts'))[0]!.replace('event.detail.reason', 'event.detail.location'))
    await writeFile(join(dir, 'tsconfig.angular-wrong.json'), JSON.stringify({ compilerOptions, files: ['wrong-angular.ts'] }))
    const { code, output } = await check(dir, tsc, ['-p', 'tsconfig.angular-wrong.json'])
    expect(code).not.toBe(0)
    expect(output).toMatch(/wrong-angular\.ts\(\d+,\d+\): error TS2339: Property 'location' does not exist/)
  })

  it("signs in with the README's Solid snippet, through solid-js/h (the JSX runtime that needs no Babel), built from the tarball", async () => {
    const { url } = await startMock()
    await writeFile(join(dir, 'run-solid.tsx'), tried((await snippets('solid', 'tsx'))[0]!, url))
    await bundle(
      dir,
      'solid',
      "import { render } from 'solid-js/web'\nimport { Login } from './run-solid.js'\nrender(() => Login(), document.getElementById('root')!)\n",
      {
        jsxImportSource: 'solid-js/h',
      },
    )
    await signsIn(await page('solid', '<h1>Sign in</h1>\n<div id="root"></div>'), 'Signed in as Ada')
  }, 120_000)

  it("signs in with the README's Angular snippet, compiled in the page (JIT) and run without zone.js, built from the tarball", async () => {
    const { url } = await startMock()
    await writeFile(join(dir, 'run-angular.ts'), tried((await snippets('angular', 'ts'))[0]!, url))
    await bundle(
      dir,
      'angular',
      `import '@angular/compiler'
import { provideZonelessChangeDetection } from '@angular/core'
import { bootstrapApplication } from '@angular/platform-browser'
import { LoginComponent } from './run-angular.js'
bootstrapApplication(LoginComponent, { providers: [provideZonelessChangeDetection()] })
`,
      { tsconfigRaw: { compilerOptions: { experimentalDecorators: true } } },
    )
    await signsIn(await page('angular', '<h1>Sign in</h1>\n<app-login></app-login>'), 'Signed in as Ada')
  }, 120_000)
})

/** The mock service from its tarball, with the test keys signed by Ada; its URL and the test keys' secret. */
let mock: Promise<{ url: string; testSecret: string }> | undefined
function startMock(): Promise<{ url: string; testSecret: string }> {
  mock ??= (async () => {
    const dir = await freshProject('mock')
    await run('npm', ['install', tarball, mockTarball, ...INSTALL, '--ignore-scripts'], { cwd: dir })
    const lines: string[] = []
    const child = spawn(process.execPath, ['node_modules/.bin/service-auth-mock', '--port', '0', '--in-memory', '--test-identity', 'ada@example.com'], {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    })
    children.push(child)
    for await (const line of createInterface({ input: child.stdout! })) {
      lines.push(line)
      if (line === 'Ctrl-C stops it.') break
    }
    child.stdout!.resume()
    const url = /^Service: (http:\/\/127\.0\.0\.1:\d+)$/.exec(lines[0]!)![1]!
    const testSecret = /^Test keys, each with the secret (\S+):/.exec(lines.find((line) => line.startsWith('Test keys'))!)![1]!
    return { url, testSecret }
  })()
  return mock
}

/**
 * Ada opens the login page (and presses `click`, a button of the page's, if given); the test key
 * signs its code by itself, and she reaches the protected page, whose heading says so. A page
 * that takes over navigation with `history.pushState` stays where it is: `heading` undefined, the
 * widget says she is signed in, at `/welcome`.
 */
async function signsIn(loginUrl: string, heading: string | RegExp | undefined, { click }: { click?: string } = {}): Promise<void> {
  browser ??= await chromium.launch(chromiumLaunchOptions())
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
  page.on('pageerror', (error) => errors.push(error.message))
  try {
    await page.goto(loginUrl)
    if (click) await page.getByRole('button', { name: click }).click()
    await page.waitForURL(/\/welcome$/, { timeout: 30_000 })
    if (heading === undefined) await widgetSaysSignedIn(page)
    else expect(await page.locator('h1').textContent()).toMatch(heading)
    expect(errors).toEqual([])
  } finally {
    await page.close()
  }
}

const widgetSaysSignedIn = (page: Page) => page.locator('[role=status]').filter({ hasText: 'Signed in' }).waitFor({ timeout: 10_000 })

/** A snippet with the README's placeholders filled in, as a reader trying it against the mock at `mockUrl` would. */
const tried = (code: string, mockUrl: string) =>
  code
    .replaceAll('YOUR_API_KEY', 'test-signs')
    .replaceAll('ANOTHER_KEY', 'test-signs')
    .replaceAll('https://api.service-auth.example', mockUrl)
    .replaceAll('https://cdn.service-auth.example/', '/cdn/')

/**
 * One origin for the snippets' pages: the package's CDN files under /cdn/, the pages built into
 * `pages/` under /pages/, the README's node:http controller helper at /auth/controller (Ada its one
 * user, her session a cookie), and /welcome, which greets only her session. Its URL.
 */
let snippetServer: Promise<string> | undefined
function serveSnippets(): Promise<string> {
  snippetServer ??= (async () => {
    const { url, testSecret } = await startMock()
    await mkdir(join(work, 'pages'), { recursive: true })
    const dir = join(work, 'mock')
    await writeFile(
      join(dir, 'serve-snippets.mjs'),
      `import { createServer } from 'node:http'
import { readFile } from 'node:fs/promises'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createClient, handleControllerRequest } from 'service-auth/server'
const { SERVICE_URL: baseUrl, SERVICE_SECRET: secret, PAGES: pages } = process.env
const client = createClient({ baseUrl, key: 'test-signs', secret })
const users = new Map([['ada@example.com', { name: 'Ada' }]])
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' }
const dist = new URL(import.meta.resolve('service-auth/package.json').replace('package.json', 'dist/'))
const file = async (res, path) => {
  const body = await readFile(path).catch(() => undefined)
  if (!body) return res.writeHead(404).end()
  res.writeHead(200, { 'Content-Type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body)
}
const server = createServer(async (req, res) => {
  const path = new URL(req.url, 'http://x').pathname
  if (path.startsWith('/cdn/')) return file(res, fileURLToPath(new URL(path.slice(5), dist)))
  if (path.startsWith('/pages/')) return file(res, join(pages, normalize('/' + path.slice(7))))
  if (path === '/welcome') {
    const ada = /(^|; )session=ada(;|$)/.test(req.headers.cookie ?? '')
    return res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(\`<!doctype html><link rel="icon" href="data:,"><title>Welcome</title><h1>\${ada ? 'Signed in as Ada' : 'Not signed in'}</h1>\`)
  }
  if (path === '/auth/controller') {
    const answer = await handleControllerRequest(req, {
      client,
      secret,
      findUser: (id) => users.get(id),
      startSession: () => ({ location: '/welcome', headers: { 'Set-Cookie': 'session=ada; Path=/; HttpOnly; SameSite=Lax' } }),
    })
    return res.writeHead(answer.status, answer.headers).end(answer.body)
  }
  res.writeHead(404).end()
})
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port))
`,
    )
    const [origin] = await start(dir, ['serve-snippets.mjs'], { SERVICE_URL: url, SERVICE_SECRET: testSecret, PAGES: join(work, 'pages') }, /^http:\/\/\S+$/)
    return origin!
  })()
  return snippetServer
}

/** Writes pages/<name>.html: `body`, with the script pages/<name>.js (and its stylesheet) when `bundled`; its URL on the snippets' server. */
async function page(name: string, body: string, { bundled = true }: { bundled?: boolean } = {}): Promise<string> {
  const head = bundled ? `<link rel="stylesheet" href="/pages/${name}.css">\n<script type="module" src="/pages/${name}.js"></script>\n` : ''
  await writeFile(
    join(work, 'pages', `${name}.html`),
    `<!doctype html>\n<html lang="en">\n<link rel="icon" href="data:,">\n<title>Sign in</title>\n${head}${body}\n</html>\n`,
  )
  return `${await serveSnippets()}/pages/${name}.html`
}

/**
 * Bundles `entry`, a module written into the project `dir` (where the tarball is installed, and
 * what the snippets import resolves), into pages/<name>.js and pages/<name>.css, for the browsers
 * the package supports.
 */
async function bundle(dir: string, name: string, entry: string, options: BuildOptions = {}): Promise<void> {
  const file = join(dir, `entry-${name}.tsx`)
  await writeFile(file, entry)
  await esbuild({
    entryPoints: { [name]: file },
    outdir: join(work, 'pages'),
    bundle: true,
    format: 'esm',
    target: 'es2022',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
    ...options,
  })
  // A page whose snippet imports no stylesheet gets an empty one, so that every page links one.
  await writeFile(join(work, 'pages', `${name}.css`), '', { flag: 'a' })
}

describe('Vue: the component and the element, with vue-tsc; the example built with Vite', () => {
  let dir: string
  beforeAll(async () => {
    dir = await freshProject('vue')
    await run(
      'npm',
      [
        'install',
        tarball,
        'vue@3',
        // The vue-tsc a new project gets.
        'vue-tsc@3',
        TYPESCRIPT_5,
        ...(await Promise.all(['vite', '@vitejs/plugin-vue', 'hono', '@hono/node-server'].map(ours))),
        ...INSTALL,
      ],
      { cwd: dir },
    )
    // And the last before 3.3, for projects that have not updated: its @vue/language-core
    // generates other code for a template. In a folder of its own, run on the project.
    const older = join(dir, 'older-vue-tsc')
    await mkdir(older)
    await writeFile(join(older, 'package.json'), JSON.stringify({ name: 'older-vue-tsc', private: true }))
    await run('npm', ['install', OLDER_VUE_TSC, TYPESCRIPT_5, ...INSTALL], { cwd: older })
    // The example as it stands: its page, its Vite config, its server.
    await cp(join(root, 'examples/vue'), dir, { recursive: true, filter: (path) => !/\/(dist|node_modules)(\/|$)/.test(path) })
    await mkdir(join(dir, 'src/snippets'))
    for (const [index, block] of (await snippets('vue', 'vue')).entries()) await writeFile(join(dir, `src/snippets/Snippet${index}.vue`), block)
  }, 240_000)

  /** vue-tsc on the project: the project's own (the current 3.x), or the older one beside it. */
  const vueTsc = (older = false) => check(dir, join(older ? 'older-vue-tsc' : '', 'node_modules/vue-tsc/bin/vue-tsc.js'), ['--noEmit', '-p', 'tsconfig.json'])

  it('type-checks the example and the snippets (the component and the element) with no warning, with the current vue-tsc and 3.2', async () => {
    expect(await vueTsc()).toEqual({ code: 0, output: '' })
    expect(await vueTsc(true)).toEqual({ code: 0, output: '' })
  })

  it('fails on a wrong handler, and without api, of the component and of the element, with the current vue-tsc and 3.2', async () => {
    // Apart: in a Vue file, <service-auth> is the component when ServiceAuth is imported. The URL
    // bound, as the README says, since vue-tsc 3.3.12+ checks nothing of a tag with a // in an attribute.
    await writeFile(
      join(dir, 'src/WrongComponent.vue'),
      `<script setup lang="ts">
import { ServiceAuth } from 'service-auth/vue'
const api = 'https://api.example'
</script>

<template>
  <ServiceAuth api-key="k" auth-url="/a" :api="api" @error="({ location }) => location" />
  <ServiceAuth api-key="k" auth-url="/a" />
</template>
`,
    )
    await writeFile(
      join(dir, 'src/WrongElement.vue'),
      `<script setup lang="ts">
import 'service-auth/element/vue'
const api = 'https://api.example'
</script>

<template>
  <service-auth api-key="k" auth-url="/a" :api="api" @service-auth-ready="(event) => event.detail.location" />
  <service-auth api-key="k" auth-url="/a" />
</template>
`,
    )
    try {
      for (const older of [false, true]) {
        const { code, output } = await vueTsc(older)
        expect(code).not.toBe(0)
        expect(output).toMatch(/src\/WrongComponent\.vue\(7,\d+\): error TS2339: Property 'location' does not exist/)
        expect(output).toMatch(/src\/WrongComponent\.vue\(8,\d+\): error [^\n]*(\n [^\n]*)*Property 'api' is missing/)
        expect(output).toMatch(/src\/WrongElement\.vue\(7,\d+\): error TS2339: Property 'location' does not exist/)
        expect(output).toMatch(/src\/WrongElement\.vue\(8,\d+\): error [^\n]*(\n [^\n]*)*Property 'api' is missing/)
      }
    } finally {
      await rm(join(dir, 'src/WrongComponent.vue'))
      await rm(join(dir, 'src/WrongElement.vue'))
    }
  })

  it('builds with vite build, and Ada signs in with test-signs through its server', async () => {
    await run(process.execPath, ['node_modules/vite/bin/vite.js', 'build'], { cwd: dir })
    const { url, testSecret } = await startMock()
    const [line] = await start(dir, ['server.mjs'], { SERVICE_URL: url, SERVICE_KEY: 'test-signs', SERVICE_SECRET: testSecret, PORT: '0' }, /^http:\/\/\S+$/)
    await signsIn(line!, 'Signed in as Ada')
  }, 120_000)

  it("signs in with each of the README's Vue snippets (the component, the element), built with Vite from the tarball", async () => {
    const { url } = await startMock()
    const blocks = await snippets('vue', 'vue')
    const runDir = join(dir, 'snippets-run')
    await mkdir(runDir, { recursive: true })
    for (const [index, block] of blocks.entries()) await writeFile(join(runDir, `Snippet${index}.vue`), tried(block, url))
    await writeFile(
      join(runDir, 'index.html'),
      '<!doctype html>\n<html lang="en">\n<link rel="icon" href="data:,">\n<title>Sign in</title>\n<h1>Sign in</h1>\n<div id="app"></div>\n<script type="module" src="./main.ts"></script>\n</html>\n',
    )
    await writeFile(
      join(runDir, 'main.ts'),
      `import { createApp } from 'vue'
${blocks.map((_, index) => `import Snippet${index} from './Snippet${index}.vue'`).join('\n')}
const snippets = [${blocks.map((_, index) => `Snippet${index}`).join(', ')}]
createApp(snippets[Number(new URLSearchParams(location.search).get('snippet'))]!).mount('#app')
`,
    )
    // As the README says to configure Vite for the element.
    await writeFile(
      join(dir, 'vite.snippets.config.mjs'),
      `import vue from '@vitejs/plugin-vue'
export default {
  root: 'snippets-run',
  base: '/pages/vue/',
  plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === 'service-auth' } } })],
  build: { outDir: ${JSON.stringify(join(work, 'pages/vue'))}, emptyOutDir: true },
  logLevel: 'warn',
}
`,
    )
    await run(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'vite.snippets.config.mjs'], { cwd: dir })
    const origin = await serveSnippets()
    // A snippet that routes with history.pushState stays on its page, the widget saying so.
    for (const [index, block] of blocks.entries())
      await signsIn(`${origin}/pages/vue/index.html?snippet=${index}`, block.includes('pushState') ? undefined : 'Signed in as Ada')
  }, 180_000)
})

describe('Svelte 5 and SvelteKit: the element, with svelte-check, built with adapter-node', () => {
  let dir: string
  beforeAll(async () => {
    dir = await freshProject('sveltekit')
    await run(
      'npm',
      [
        'install',
        tarball,
        'svelte-check@4',
        TYPESCRIPT_5,
        ...(await Promise.all(['svelte', 'vite', '@sveltejs/kit', '@sveltejs/adapter-node', '@sveltejs/vite-plugin-svelte'].map(ours))),
        ...INSTALL,
      ],
      { cwd: dir },
    )
    await cp(join(root, 'examples/sveltekit'), dir, { recursive: true, filter: (path) => !/\/(build|\.svelte-kit|node_modules|package\.json)$/.test(path) })
    await writeFile(join(dir, 'src/lib/Login.svelte'), (await snippets('svelte', 'svelte'))[0]!)
    await mkdir(join(dir, 'src/routes/snippet/auth/controller'), { recursive: true })
    await writeFile(join(dir, 'src/routes/snippet/auth/controller/+server.ts'), (await snippets('sveltekit', 'ts'))[0]!)
    // Pages that run the snippets: the Svelte page's component, and the element handing over to the
    // SvelteKit snippet's controller; the service's URL from the server's environment, as the example's.
    const load =
      "import { env } from '$env/dynamic/private'\nimport type { PageServerLoad } from './$types'\n\nexport const load: PageServerLoad = () => ({ api: env.SERVICE_URL ?? '' })\n"
    await writeFile(join(dir, 'src/routes/snippet/+page.server.ts'), load)
    await writeFile(
      join(dir, 'src/routes/snippet/+page.svelte'),
      '<script lang="ts">\n  import Login from \'$lib/Login.svelte\'\n  import type { PageData } from \'./$types\'\n\n  let { data }: { data: PageData } = $props()\n</script>\n\n<h1>Sign in</h1>\n<Login apiKey="test-signs" api={data.api} />\n',
    )
    await mkdir(join(dir, 'src/routes/snippet-controller'))
    await writeFile(join(dir, 'src/routes/snippet-controller/+page.server.ts'), load)
    await writeFile(
      join(dir, 'src/routes/snippet-controller/+page.svelte'),
      '<script lang="ts">\n  import \'service-auth/element/svelte\'\n  import type { PageData } from \'./$types\'\n\n  let { data }: { data: PageData } = $props()\n</script>\n\n<h1>Sign in</h1>\n<service-auth api-key="test-signs" auth-url="/snippet/auth/controller" api={data.api}></service-auth>\n',
    )
    await run(process.execPath, ['node_modules/@sveltejs/kit/svelte-kit.js', 'sync'], { cwd: dir })
  }, 240_000)

  const svelteCheck = () => check(dir, 'node_modules/svelte-check/bin/svelte-check', ['--fail-on-warnings', '--output', 'machine'])

  it('type-checks the example and the snippets (a Svelte page, a SvelteKit endpoint) with no warning', async () => {
    const { code, output } = await svelteCheck()
    expect(output.split('\n').at(-1)).toMatch(/COMPLETED \d+ FILES 0 ERRORS 0 WARNINGS/)
    expect(code).toBe(0)
  })

  it('fails on a wrong handler of the element, and without api', async () => {
    await writeFile(
      join(dir, 'src/lib/Wrong.svelte'),
      `<script lang="ts">
  import 'service-auth/element/svelte'
</script>

<service-auth api-key="k" auth-url="/a" api="https://api.example" onservice-auth-ready={(event) => event.detail.location}></service-auth>
<service-auth api-key="k" auth-url="/a"></service-auth>
`,
    )
    try {
      const { code, output } = await svelteCheck()
      expect(code).not.toBe(0)
      expect(output).toMatch(/ERROR "src\/lib\/Wrong\.svelte" 5:\d+ "Property 'location' does not exist/)
      expect(output).toMatch(/ERROR "src\/lib\/Wrong\.svelte" 6:\d+ "[^\n]*Property 'api' is missing/)
    } finally {
      await rm(join(dir, 'src/lib/Wrong.svelte'))
    }
  })

  it('builds with vite build (adapter-node), and Ada signs in with test-signs through `node build`', async () => {
    await run(process.execPath, ['node_modules/vite/bin/vite.js', 'build'], { cwd: dir, maxBuffer: 16 << 20 })
    const { url, testSecret } = await startMock()
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    await start(
      dir,
      ['build'],
      { HOST: '127.0.0.1', PORT: String(port), ORIGIN: origin, SERVICE_URL: url, SERVICE_KEY: 'test-signs', SERVICE_SECRET: testSecret },
      /^Listening on /,
    )
    await signsIn(origin + '/login', 'Signed in as Ada')
    // The README's Svelte page, through the example's controller.
    await signsIn(origin + '/snippet', 'Signed in as Ada')
    // The README's SvelteKit controller: it confirms the sign-in and sends the browser on, with its session cookie.
    browser ??= await chromium.launch(chromiumLaunchOptions())
    const tab = await browser.newPage()
    try {
      // Read on its way to the page, which navigates away as soon as it has it.
      const answered = new Promise<{ status: number; body: unknown; cookie: string | undefined }>((resolve) =>
        tab.route('**/snippet/auth/controller', async (route) => {
          const response = await route.fetch()
          resolve({ status: response.status(), body: await response.json(), cookie: response.headers()['set-cookie'] })
          await route.fulfill({ response })
        }),
      )
      await tab.goto(origin + '/snippet-controller')
      expect(await answered).toEqual({ status: 200, body: { location: '/welcome' }, cookie: 'session=1; Path=/; HttpOnly; Secure; SameSite=Lax' })
    } finally {
      await tab.close()
    }
  }, 180_000)
})

describe("plain HTML: the CDN script and the element's script, served from the package", () => {
  it("Ada signs in with test-signs on a page with <service-auth>, through the package's node:http controller helper", async () => {
    const { url, testSecret } = await startMock()
    const dir = join(work, 'mock')
    await writeFile(
      join(dir, 'login.html'),
      `<!doctype html>
<html lang="en">
<link rel="icon" href="data:,">
<title>Sign in</title>
<link rel="stylesheet" href="/cdn/service-auth.css">
<script src="/cdn/service-auth.js" defer></script>
<script src="/cdn/service-auth-element.js" defer></script>
<h1>Sign in</h1>
<service-auth api-key="test-signs" auth-url="/auth/controller" api="${url}"></service-auth>
</html>
`,
    )
    await writeFile(
      join(dir, 'serve-html.mjs'),
      `import { createServer } from 'node:http'
import { readFile } from 'node:fs/promises'
import { createClient, handleControllerRequest } from 'service-auth/server'
const { SERVICE_URL: baseUrl, SERVICE_SECRET: secret } = process.env
const client = createClient({ baseUrl, key: 'test-signs', secret })
const users = new Map([['ada@example.com', { name: 'Ada' }]])
const server = createServer(async (req, res) => {
  const path = new URL(req.url, 'http://x').pathname
  const cdn = /^\\/cdn\\/(service-auth(?:-element)?\\.(?:js|css))$/.exec(path)
  if (cdn) return res.writeHead(200, { 'Content-Type': cdn[1].endsWith('.css') ? 'text/css' : 'text/javascript' }).end(await readFile(new URL(import.meta.resolve('service-auth/package.json').replace('package.json', 'dist/' + cdn[1]))))
  if (path === '/login') return res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; connect-src 'self' " + baseUrl }).end(await readFile('login.html'))
  if (path === '/welcome') return res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end('<!doctype html><link rel="icon" href="data:,"><title>Welcome</title><h1>Signed in as Ada</h1>')
  if (path === '/auth/controller') {
    const answer = await handleControllerRequest(req, { client, secret, findUser: (id) => users.get(id), startSession: () => ({ location: '/welcome' }) })
    return res.writeHead(answer.status, answer.headers).end(answer.body)
  }
  res.writeHead(404).end()
})
server.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + server.address().port + '/login'))
`,
    )
    const [line] = await start(dir, ['serve-html.mjs'], { SERVICE_URL: url, SERVICE_SECRET: testSecret }, /^http:\/\/\S+$/)
    await signsIn(line!, 'Signed in as Ada')
  }, 120_000)

  it("signs in with the README's ES module snippets, and with the element's, as a module and from the CDN", async () => {
    const { url } = await startMock()
    const dir = join(work, 'mock')
    const readme = await readFile(join(root, 'packages/service-auth/README.md'), 'utf8')
    // The module's snippets on one page: the first mounts #login, the next routes with the app's router.
    const modules = await snippets('browser', 'js')
    for (const [index, block] of modules.entries()) await writeFile(join(dir, `run-browser-${index}.js`), tried(block, url))
    await writeFile(join(dir, 'router.js'), 'window.router = { push: (path) => location.assign(path) }\n')
    await bundle(dir, 'module', `import './router.js'\n${modules.map((_, index) => `import './run-browser-${index}.js'`).join('\n')}\n`)
    await signsIn(await page('module', '<h1>Sign in</h1>\n<div id="login"></div>'), 'Signed in as Ada')

    // The element's: its markup, then its script, which takes over navigation with history.pushState.
    const [markup, cdnPage] = [...readme.matchAll(/```html\n([\s\S]*?)```/g)].map((match) => match[1]!).filter((html) => html.includes('<service-auth '))
    expect(markup).not.toContain('<script')
    await writeFile(join(dir, 'run-element.ts'), tried((await snippets('element', 'ts'))[0]!, url))
    await bundle(dir, 'element', "import './run-element.js'\n")
    await signsIn(await page('element', tried(markup!, url)), undefined)

    // From the CDN: the script, whose own tag names the service, and the element's script.
    expect(cdnPage).toContain('service-auth-element-')
    await signsIn(await page('cdn-element', `<h1>Sign in</h1>\n${tried(cdnPage!, url)}`, { bundled: false }), 'Signed in as Ada')
  }, 120_000)
})
