// The framework bindings as integrators install them (issue 29): `npm pack` of both workspaces,
// then a fresh project per framework, each type-checked by that framework's own checker from the
// tarball, with the service-auth README's framework snippets: tsc for the element in plain TypeScript, React 19,
// Next.js, Solid and Angular; vue-tsc for .vue files; svelte-check for .svelte files and a
// SvelteKit endpoint. Each check passes with no warning, and a deliberately wrong handler fails
// it. vue-tsc and svelte-check load TypeScript's JavaScript API, which TypeScript 7 (the
// repository's) does not have: their projects install TypeScript 5, as an integrator's would.
// Then Vue, Svelte 5 (SvelteKit) and plain HTML pages, built from the tarballs as their users
// build them, sign in against the mock (`service-auth-mock` from its tarball) with the test key
// test-signs, in Chromium.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { chromium, type Browser } from '@playwright/test'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chromiumLaunchOptions } from '../../e2e/chromium.js'
import { freePort } from '../../e2e/processes.js'

const run = promisify(execFile)
const root = fileURLToPath(new URL('../..', import.meta.url))
const tsc = join(root, 'node_modules/typescript/bin/tsc')
const INSTALL = ['--no-audit', '--no-fund', '--prefer-offline']
/** The TypeScript that vue-tsc and svelte-check run on (they need its JavaScript API). */
const TYPESCRIPT_5 = 'typescript@5'
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
})

describe('Solid and Angular, through the element, with tsc', () => {
  let dir: string
  beforeAll(async () => {
    dir = await freshProject('solid-angular')
    await run('npm', ['install', tarball, 'solid-js@1', '@angular/core@22', 'rxjs@7', ...INSTALL, '--ignore-scripts', '--legacy-peer-deps'], { cwd: dir })
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

/** Ada opens the login page; the test key signs its code by itself, and she reaches the protected page, whose heading says so. */
async function signsIn(loginUrl: string, heading: string | RegExp): Promise<void> {
  browser ??= await chromium.launch(chromiumLaunchOptions())
  const page = await browser.newPage()
  const errors: string[] = []
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()))
  try {
    await page.goto(loginUrl)
    await page.waitForURL(/\/welcome$/, { timeout: 30_000 })
    expect(await page.locator('h1').textContent()).toMatch(heading)
    expect(errors).toEqual([])
  } finally {
    await page.close()
  }
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
        'vue-tsc@3',
        TYPESCRIPT_5,
        ...(await Promise.all(['vite', '@vitejs/plugin-vue', 'hono', '@hono/node-server'].map(ours))),
        ...INSTALL,
      ],
      { cwd: dir },
    )
    // The example as it stands: its page, its Vite config, its server.
    await cp(join(root, 'examples/vue'), dir, { recursive: true, filter: (path) => !/\/(dist|node_modules)(\/|$)/.test(path) })
    await mkdir(join(dir, 'src/snippets'))
    for (const [index, block] of (await snippets('vue', 'vue')).entries()) await writeFile(join(dir, `src/snippets/Snippet${index}.vue`), block)
  }, 240_000)

  const vueTsc = () => check(dir, 'node_modules/vue-tsc/bin/vue-tsc.js', ['--noEmit', '-p', 'tsconfig.json'])

  it('type-checks the example and the snippets (the component and the element) with no warning', async () => {
    expect(await vueTsc()).toEqual({ code: 0, output: '' })
  })

  it('fails on a wrong handler, and without api, of the component and of the element', async () => {
    // Apart: in a Vue file, <service-auth> is the component when ServiceAuth is imported.
    await writeFile(
      join(dir, 'src/WrongComponent.vue'),
      `<script setup lang="ts">
import { ServiceAuth } from 'service-auth/vue'
</script>

<template>
  <ServiceAuth api-key="k" auth-url="/a" api="https://api.example" @error="({ location }) => location" />
  <ServiceAuth api-key="k" auth-url="/a" />
</template>
`,
    )
    await writeFile(
      join(dir, 'src/WrongElement.vue'),
      `<script setup lang="ts">
import 'service-auth/element/vue'
</script>

<template>
  <service-auth api-key="k" auth-url="/a" api="https://api.example" @service-auth-ready="(event) => event.detail.location" />
  <service-auth api-key="k" auth-url="/a" />
</template>
`,
    )
    try {
      const { code, output } = await vueTsc()
      expect(code).not.toBe(0)
      expect(output).toMatch(/src\/WrongComponent\.vue\(6,\d+\): error TS2339: Property 'location' does not exist/)
      expect(output).toMatch(/src\/WrongComponent\.vue\(7,\d+\): error [^\n]*(\n [^\n]*)*Property 'api' is missing/)
      expect(output).toMatch(/src\/WrongElement\.vue\(6,\d+\): error TS2339: Property 'location' does not exist/)
      expect(output).toMatch(/src\/WrongElement\.vue\(7,\d+\): error [^\n]*(\n [^\n]*)*Property 'api' is missing/)
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
})
