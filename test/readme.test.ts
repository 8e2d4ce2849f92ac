// @vitest-environment node
// What the READMEs say, held to the code: every export is documented, the documented names and
// options exist, and the links of the READMEs npm shows work there. Each package's README is
// the one in its tarball; the repository's README only introduces them.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import * as embed from 'service-auth'
import * as server from 'service-auth/server'
import { recommendedPolicy } from 'service-auth-demo'
import * as testing from '@service-auth/mock'
import * as knobs from '@service-auth/mock/knobs'
import * as inProcess from '@service-auth/mock/service'

const root = fileURLToPath(new URL('..', import.meta.url))
const read = (path: string) => readFile(new URL(`../${path}`, import.meta.url), 'utf8')

/** The packages, each with the README npm shows and its package.json. */
const PACKAGES = {
  'service-auth': {
    dir: 'packages/service-auth',
    readme: await read('packages/service-auth/README.md'),
    manifest: JSON.parse(await read('packages/service-auth/package.json')),
  },
  '@service-auth/mock': { dir: 'packages/mock', readme: await read('packages/mock/README.md'), manifest: JSON.parse(await read('packages/mock/package.json')) },
}
const embedReadme = PACKAGES['service-auth'].readme
const mockReadme = PACKAGES['@service-auth/mock'].readme
const repoReadme = await read('README.md')
const mockReference = await read('packages/mock/docs/reference.md')

/** The text under a `## heading`, up to the next `## ` (its `###` subsections included). */
function sectionOf(readme: string, heading: string): string {
  const start = readme.search(new RegExp(`^## ${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'))
  expect(start, `## ${heading}`).toBeGreaterThanOrEqual(0)
  const end = readme.indexOf('\n## ', start + 3)
  return readme.slice(start, end < 0 ? undefined : end)
}

/** The fields of `export interface name` in a source file: properties and methods. */
async function interfaceFields(file: string, name: string): Promise<string[]> {
  const source = await read(file)
  const start = source.search(new RegExp(`export interface ${name}[ <]`))
  expect(start, `${name} in ${file}`).toBeGreaterThanOrEqual(0)
  const body = source.slice(start, source.indexOf('\n}\n', start))
  return [...body.matchAll(/^ {2}(?:readonly )?(\w+)\??[:(]/gm)].map((match) => match[1]!)
}

/** The names a README lists in a call's options object, as in `call({a, b?, c: {…}})`: `['a', 'b', 'c']`. */
function listedOptions(text: string, call: string): string[] {
  const start = text.indexOf(`\`${call}`)
  expect(start, call).toBeGreaterThanOrEqual(0)
  const open = text.indexOf('{', start)
  let depth = 0
  let end = open
  for (; end < text.length; end++) {
    if (text[end] === '{') depth++
    if (text[end] === '}' && --depth === 0) break
  }
  const names: string[] = []
  depth = 0
  let current = ''
  for (const char of text.slice(open + 1, end)) {
    if (char === '{') depth++
    if (char === '}') depth--
    if (char === ',' && depth === 0) {
      names.push(current)
      current = ''
    } else current += char
  }
  names.push(current)
  return names.map((name) => name.trim().replace(/[?:].*$/s, ''))
}

/** GitHub's ids for a README's headings (as npm's too): lower case, punctuation dropped, spaces as hyphens. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const anchors = new Set<string>()
  for (const [, heading] of withoutCode(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*$/gm)) {
    const base = heading!
      .toLowerCase()
      .replace(/<[^>]*>/g, '')
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count ? `${base}-${count}` : base)
  }
  return anchors
}

/** The text outside fenced code blocks and HTML comments; inline code spans become their bare text for headings. */
function withoutCode(markdown: string): string {
  return markdown
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/`([^`\n]*)`/g, '$1')
}

/** Every link and image of a README: Markdown's `[…](url)`, `![…](url)` and `[…]: url`, and HTML's `href` and `src`. Code is no link. */
function linksOf(markdown: string): string[] {
  const text = markdown
    .replace(/^```[\s\S]*?^```/gm, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/`[^`\n]*`/g, '')
  return [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((match) => match[1]!),
    ...[...text.matchAll(/<(?:a|img|source)\b[^>]*?\s(?:href|src|srcset)="([^"]+)"/g)].map((match) => match[1]!),
  ]
}

/** The files git holds at or under a path of the repository. */
const tracked = (path: string) => execFileSync('git', ['ls-files', '--', path], { cwd: root, encoding: 'utf8' }).trim()

describe("service-auth's README", () => {
  const section = (heading: string) => sectionOf(embedReadme, heading)

  it('documents every export of the module under API', () => {
    const api = section('API')
    for (const name of Object.keys(embed)) expect(api, name).toContain(`\`${name}`)
  })

  it('documents every prop of the React component under React: every option, and its own', async () => {
    const names = [...Object.keys(embed.OPTIONS), ...(await interfaceFields('packages/service-auth/src/react.tsx', 'ServiceAuthProps'))]
    expect(names).toContain('onSuccess')
    const react = section('React')
    for (const name of names) expect(react, name).toContain(`\`${name}\``)
  })

  it('has the options table OPTIONS is: every option, its attributes, type, whether required, and its one-line doc, in order', async () => {
    // The one-line doc of each row of OPTIONS, as src/config.ts writes it.
    const source = await read('packages/service-auth/src/config.ts')
    const table = source.slice(source.indexOf('export const OPTIONS = {'))
    const docs = Object.fromEntries([...table.matchAll(/^ {2}\/\*\* (.+) \*\/\n {2}(\w+): \{/gm)].map(([, doc, name]) => [name, doc]))
    const TYPE = { string: 'string', boolean: 'yes or no', texts: 'texts' }
    const expected = Object.entries(embed.OPTIONS).map(([name, row]) => {
      const { attribute, element, type, required } = row as { attribute?: string; element?: string; type: keyof typeof TYPE; required?: true }
      const code = (text?: string) => (text ? `\`${text}\`` : '')
      // An empty cell is written `| |`.
      return `| ${code(name)} | ${code(attribute)} | ${code(element)} | ${TYPE[type]} | ${required ? 'yes' : ''} | ${docs[name]} |`.replace(/ {2}\|/g, ' |')
    })
    expect(Object.keys(docs)).toEqual(Object.keys(embed.OPTIONS))
    const [, rows] = /<!-- options: [^\n]*-->\n\|[^\n]*\n\|[-|]*\n((?:\|[^\n]*\n)*)/.exec(section('Options')) ?? []
    expect(rows?.trimEnd().split('\n')).toEqual(expected)
  })

  it("has every framework snippet name the service, api being required everywhere: on the element, as a prop, or on the CDN script's own tag", () => {
    const snippets = [...embedReadme.matchAll(/<!-- checked: (\w+) -->\n```\w+\n([\s\S]*?)```/g)].filter(([, kind]) => kind != 'sveltekit' && kind != 'browser')
    expect(snippets.length).toBeGreaterThanOrEqual(9)
    for (const [, kind, code] of snippets) {
      // The element's TypeScript snippet works on the element of the HTML snippet before it.
      if (kind == 'element') continue
      expect(code, kind).toMatch(/\bapi=|\{api\}|api: /)
    }
    for (const [html] of embedReadme.matchAll(/```html\n[\s\S]*?```/g)) {
      if (!/<service-auth |data-service-auth[ >]/.test(html)) continue
      expect(html).toMatch(/\bapi="|data-service-api="/)
    }
  })

  it('documents every export of service-auth/server, and every client method, under Your controller', () => {
    const controller = section('Your controller')
    for (const name of Object.keys(server)) expect(controller, name).toContain(name)
    const client = server.createClient({ baseUrl: 'https://api.example', key: 'k', secret: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=' })
    for (const [name, value] of Object.entries(client)) {
      if (typeof value == 'string') {
        expect(controller, name).toContain(`\`${name}\``)
        continue
      }
      const methods = typeof value == 'function' ? [name] : Object.keys(value).map((method) => `${name}.${method}`)
      for (const method of methods) expect(controller, method).toMatch(new RegExp(`\`(${method.replace('.', '\\.')}|\\.${method.split('.').pop()})\\(`))
    }
  })

  it('lists the options of createClient and verifyAuthToken as they are, and names every controller option', async () => {
    const controller = section('Your controller')
    expect(listedOptions(controller, 'createClient({')).toEqual(await interfaceFields('packages/service-auth/src/server/client.ts', 'ClientOptions'))
    expect(listedOptions(controller, 'verifyAuthToken(token, {')).toEqual(await interfaceFields('packages/service-auth/src/server/verify.ts', 'VerifyOptions'))
    for (const option of await interfaceFields('packages/service-auth/src/server/controller-handler.ts', 'ControllerOptions'))
      expect(controller, option).toContain(`\`${option}`)
  })

  it('recommends the policy the strict fixture sends, which the end-to-end tests sign in under: default-src, base-uri, object-src and frame-ancestors included', () => {
    const block = /```http\nContent-Security-Policy: ([^`]*?)\n```/.exec(section('Content-Security-Policy'))?.[1]
    expect(block?.replace(/\s*\n\s*/g, ' ')).toBe(recommendedPolicy().join('; '))
    expect(recommendedPolicy()).toEqual(expect.arrayContaining(["default-src 'none'", "base-uri 'none'", "object-src 'none'", "frame-ancestors 'none'"]))
  })

  it('has the Python and PHP examples, whose readers need no npm project, start the mock by its package name', async () => {
    for (const file of ['examples/python/app.py', 'examples/php/app.php']) {
      const source = await read(file)
      expect(source, file).toContain('`npx @service-auth/mock` starts a local mock service')
      expect(source, file).not.toContain('npx service-auth-mock')
    }
  })

  it("quotes the Python and PHP examples' controllers as the files have them", async () => {
    const excerpts = [...embedReadme.matchAll(/<!-- excerpt: (\S+) -->\n```\w+\n([\s\S]*?)```/g)]
    expect(excerpts.map(([, path]) => path)).toEqual(['examples/python/app.py', 'examples/php/app.php'])
    // Line by line, as the file has them in a row; the indentation is the excerpt's own.
    const lines = (text: string) => text.split('\n').map((line) => line.trim())
    for (const [, path, excerpt] of excerpts) expect(lines(await read(path!)).join('\n'), path).toContain(lines(excerpt!.trimEnd()).join('\n'))
  })

  it("has the table of onRefused's reasons src/server/refusal.ts has: every reason, in order, with its status", async () => {
    const source = await read('packages/service-auth/src/server/refusal.ts')
    const reasons = [...source.matchAll(/^ {2}'?([a-z-]+)'?: \{\s*status: (\d{3}),/gm)].map(([, reason, status]) => `${reason} ${status}`)
    expect(reasons.length).toBeGreaterThan(10)
    const [, table] = /\n\| `reason` \| Status \|[^\n]*\n\|[-|]*\n((?:\|[^\n]*\n)*)/.exec(section('Your controller')) ?? []
    const rows = table!
      .trimEnd()
      .split('\n')
      .flatMap((row) => {
        const [, names, status] = /^\| ([^|]+) \| (\d{3}) \|/.exec(row) ?? []
        return [...names!.matchAll(/`([a-z-]+)`/g)].map(([, reason]) => `${reason} ${status}`)
      })
    expect(rows).toEqual(reasons)
  })

  it("quotes the embed's console lines for a controller that did not answer, or named no place, as the code writes them", async () => {
    const handOver = await read('packages/service-auth/src/hand-over.ts')
    const [, unreachable] = /^ {4}unreachable: '([^']+)',$/m.exec(handOver) ?? []
    const [, noLocation] = /console\.warn\('([^']+)'\)/.exec(await read('packages/service-auth/src/run.ts')) ?? []
    expect(noLocation).toMatch(/^service-auth: /)
    const events = section('Events')
    expect(events).toContain(`| \`service-auth: ${unreachable}\` |`)
    expect(events).toContain(`| \`${noLocation}\` |`)
  })

  it('has every controller snippet with a user store let in whom test-signs signs as, with that key only, as the mock starts by default', () => {
    // A new user follows the README with `npx @service-auth/mock` and test-signs: a snippet whose store
    // knows only Ada answers 403 (unknown-user) and the widget says "Sign-in failed".
    // Whom test-signs signs as when the mock is started as it is, as the mock's README says.
    const [, DEFAULT_TEST_IDENTITY] = /^\| `test-signs` \|[^\n]*with the phone of `([^`]+)` \(`--test-identity` names another\)/m.exec(mockReadme) ?? []
    expect(DEFAULT_TEST_IDENTITY).toBe('test@example.com')
    const snippets = [...embedReadme.matchAll(/```(?:js|ts)\n([\s\S]*?)```/g)]
      .map(([, code]) => code!)
      .filter((code) => /findUser: \(identifier\) => users\.get/.test(code))
    expect(snippets.length).toBeGreaterThanOrEqual(3)
    for (const code of snippets) {
      const [, line] = /^(if \(\S*SERVICE_KEY === '([^']+)'\) users\.set\('([^']+)'.*)$/m.exec(code) ?? []
      expect(line, code.split('\n').find((l) => l.includes('users.get')) ?? code).toBeDefined()
      expect(line).toContain(`=== '${testing.TEST_KEYS.signs}') users.set('${DEFAULT_TEST_IDENTITY}'`)
    }
  })

  it('has the element defined after hydration where React renders it on a server (Next.js), and says why', () => {
    // Imported at the top of a client component, the element mounts the widget into the server's
    // empty <service-auth> before React hydrates it: React 19 fails hydration (error 418), rebuilds
    // the tree, and the widget starts twice. Imported by a server component alone, it is never defined.
    const next = section('React').slice(section('React').indexOf('### Next.js'))
    const [, code] = /<!-- checked: next -->\n```tsx\n((?:(?!```)[\s\S])*<service-auth [\s\S]*?)```/.exec(next) ?? []
    expect(code).toContain("import type {} from 'service-auth/element/react'")
    expect(code).toMatch(/useEffect\(\(\) => void import\('service-auth\/element'\), \[\]\)/)
    expect(code).not.toMatch(/^import 'service-auth\/element/m)
    expect(next).toMatch(/Hydration failed/)
    expect(next).toMatch(/server component alone/)
  })

  it('says under Next.js that next build loads the controller without your secrets, and what to do', () => {
    const next = section('React').slice(section('React').indexOf('### Next.js'))
    expect(next).toMatch(/`next build` loads every route handler/)
    expect(next).toContain('examples/next/lib/service-auth.ts')
    expect(next).toContain('got undefined')
  })

  it("has the CDN snippet name the mock service's address in data-service-api, with a test key that works as written", () => {
    const installation = section('Installation')
    // The port the mock's README gives as the command's default (its own test holds that to the code).
    const [, port] = /^\| `--port N` \|[^|\n]*\|[^|\n]*\| (\d+) \|/m.exec(mockReadme) ?? []
    expect(port).toBeDefined()
    expect(installation).toMatch(new RegExp(`data-service-key="${testing.TEST_KEYS.signs}"[^>]*\\s+data-service-api="http://127\\.0\\.0\\.1:${port}"></div>`))
    expect(installation).toContain('npx @service-auth/mock')
  })
})

describe("@service-auth/mock's README", () => {
  const section = (heading: string) => sectionOf(mockReadme, heading)
  const services: { close(): Promise<void> }[] = []
  afterAll(() => Promise.all(services.map((service) => service.close())))

  it('documents every export of @service-auth/mock under Test kit, and the test keys and their secret under Test keys', () => {
    const kit = section('Test kit')
    for (const name of Object.keys(testing)) expect(kit, name).toContain(`\`${name}`)
    for (const name of Object.keys(knobs)) expect(section('The knob client'), name).toContain(`\`${name}`)
    for (const name of Object.keys(inProcess)) expect(section('The service in your process'), name).toContain(`\`${name}`)
    for (const key of Object.values(testing.TEST_KEYS)) expect(section('Test keys')).toContain(`| \`${key}\` |`)
    expect(section('Test keys')).toContain(`| \`${testing.TEST_SECRET}\` |`)
  })

  it('lists what startMockService and connectMockService resolve to as they are: every method, and no other', async () => {
    const kit = section('Test kit')
    const started = await testing.startMockService()
    services.push(started)
    const listed = (call: string) => {
      const [, fields] = new RegExp(`\`${call}\\([\\s\\S]*?(?:resolves to|returns)\\s+\`\\{([^}]*)\\}\``).exec(kit) ?? []
      expect(fields, call).toBeDefined()
      return fields!.split(',').map((field) => field.trim().replace(/\(\)$/, ''))
    }
    expect(listed('startMockService').sort()).toEqual(Object.keys(started).sort())
    const connected = testing.connectMockService({ url: started.url, key: started.key, secret: started.secret })
    expect(listed('connectMockService').sort()).toEqual(Object.keys(connected).sort())
    // An isolated connection has close() too: it frees its key.
    const isolated = await testing.connectMockService({ url: started.url, isolate: true })
    expect(Object.keys(isolated).sort()).toEqual(Object.keys(started).sort())
    expect(kit).toMatch(/`await connectMockService\(\{url, isolate: true\}\)`[^.]*\. Its `close\(\)` frees the key/)
    await isolated.close()
  })

  it("lists the options of the kit's calls, and the fields of what they resolve to, as the code has them", async () => {
    const kit = section('Test kit')
    const file = 'packages/mock/src/testing/mock-service.ts'
    const controls = 'packages/mock/src/testing/controls.ts'
    expect(listedOptions(kit, 'startMockService({')).toEqual(await interfaceFields(file, 'StartMockServiceOptions'))
    expect(listedOptions(kit, 'failNext({')).toEqual(await interfaceFields(controls, 'Failure'))
    expect(listedOptions(kit, 'delayNext({')).toEqual(await interfaceFields(controls, 'Delay'))
    expect(listedOptions(kit, 'holdNext({')).toEqual(await interfaceFields(controls, 'Hold'))
    expect(listedOptions(kit, "held()` resolves to the key's requests waiting now,\n  `[{")).toEqual(
      await interfaceFields('packages/mock/src/knobs/holds.ts', 'HeldRequest'),
    )
    const shownOptions = await interfaceFields('packages/mock/src/testing/shown-code.ts', 'ShownCodeOptions')
    expect(listedOptions(kit, 'signShownCode(page, identity, {')).toEqual(shownOptions)
    expect(listedOptions(kit, 'expireShownCode(page, {')).toEqual(shownOptions)
    expect(listedOptions(kit, 'readShownCode(page, {')).toEqual(shownOptions)
    expect(listedOptions(kit.slice(kit.indexOf('resolves once the page has signed')), '{challengeId')).toEqual(
      await interfaceFields('packages/mock/src/testing/shown-code.ts', 'ShownCode'),
    )
    expect(listedOptions(kit, 'connectMockService({')).toEqual(await interfaceFields(file, 'ConnectMockServiceOptions'))
    expect(listedOptions(kit, 'await connectMockService({')).toEqual(await interfaceFields(file, 'IsolatedMockServiceOptions'))
    expect(listedOptions(kit, 'TEST_KEYS` (`{')).toEqual(Object.keys(testing.TEST_KEYS))
  })

  it('lists every call of the knob client, and what startService takes and resolves to, as the code has them', async () => {
    const client = section('The knob client')
    const calls = [...client.matchAll(/`(\w+)\(/g)].map((match) => match[1]!)
    const methods = Object.getOwnPropertyNames(knobs.KnobClient.prototype).filter((name) => name !== 'constructor')
    expect([...new Set(calls)].sort()).toEqual(methods.sort())
    const own = section('The service in your process')
    expect(listedOptions(own, 'startService({')).toEqual(await interfaceFields('packages/mock/src/service/server.ts', 'ServiceOptions'))
    const [, resolved] = /`startService\([\s\S]*?resolves to\s+`\{([^}]*)\}`/.exec(own) ?? []
    expect(resolved?.split(',').map((field) => field.trim())).toEqual(await interfaceFields('packages/mock/src/service/server.ts', 'ServiceHandle'))
  })

  it('lists the options of checkController as the code has them', async () => {
    expect(listedOptions(section('Test kit'), 'checkController({')).toEqual(
      await interfaceFields('packages/mock/src/testing/check-controller/check-controller.ts', 'CheckControllerOptions'),
    )
  })

  it('shows a complete Playwright test, the one e2e/readme-example.spec.ts runs word for word, importing nothing the reader must write', async () => {
    const [, example] = /<!-- run: playwright -->\n```ts\n([\s\S]*?)```/.exec(mockReadme) ?? []
    expect(example).toBeDefined()
    const imported = [...example!.matchAll(/^import [^'\n]*'([^']+)'/gm)].map((match) => match[1]!)
    expect(imported.filter((specifier) => !specifier.startsWith('node:')).sort()).toEqual(['@playwright/test', '@service-auth/mock', 'service-auth/server'])
    const spec = await read('e2e/readme-example.spec.ts')
    expect(spec.endsWith(example!)).toBe(true)
  })
})

describe.each(['examples/README.md', 'packages/mock/docs/reference.md'])('%s', (file) => {
  it('links only to files and headings that exist, relative to its own folder', async () => {
    const text = await read(file)
    const links = linksOf(text).filter((link) => !/^https?:/.test(link))
    expect(links.length).toBeGreaterThan(1)
    for (const link of links) {
      const [path, anchor] = link.split('#') as [string, string | undefined]
      const target = path === '' ? file : posix.join(posix.dirname(file), path)
      expect(tracked(target), `${link} in ${file}: ${target} is in git`).not.toBe('')
      if (anchor) expect(anchorsOf(await read(target)), `${link} in ${file}`).toContain(anchor)
    }
  })
})

describe("the mock's knob tables", () => {
  type Schema = { $ref?: string; allOf?: Schema[]; properties?: Record<string, unknown>; required?: string[] }
  const contract = parse(readFileSync(join(root, 'packages/mock/openapi.yaml'), 'utf8'), { maxAliasCount: -1 })
  const resolved = (schema: Schema): Schema =>
    schema.$ref
      ? resolved(
          schema.$ref
            .slice(2)
            .split('/')
            .reduce((at: any, name) => at[name], contract),
        )
      : schema
  /** A knob's body fields as openapi.yaml has them: `name` when required, `name?` when not. */
  function bodyFields(method: string, path: string): string[] {
    const body = contract.paths[path]?.[method.toLowerCase()]?.requestBody
    expect(body, `${method} ${path} takes a body in openapi.yaml`).toBeDefined()
    const schema = resolved(body.content['application/json'].schema)
    const parts = [schema, ...(schema.allOf ?? []).map(resolved)]
    const required = new Set(parts.flatMap((part) => part.required ?? []))
    return [...new Set(parts.flatMap((part) => Object.keys(part.properties ?? {})))].map((name) => (required.has(name) ? name : `${name}?`))
  }

  it.each([
    ['packages/mock/README.md', mockReadme],
    ['packages/mock/docs/reference.md', mockReference],
  ])("%s names each knob's body fields as openapi.yaml has them: every one, or some and `…`", (file, text) => {
    const rows = [...text.matchAll(/`(POST|DELETE) (\/__knobs\/[^`]*)` `\{([^}]*)\}`/g)]
    expect(rows.length, file).toBeGreaterThan(4)
    for (const [, method, path, listed] of rows) {
      const fields = listed!.split(',').map((field) => field.trim())
      const all = bodyFields(method!, path!)
      if (fields.at(-1) === '…') expect(all, `${method} ${path} in ${file}`).toEqual(expect.arrayContaining(fields.slice(0, -1)))
      else expect(fields.sort(), `${method} ${path} in ${file}`).toEqual(all.sort())
    }
  })
})

describe.each(Object.entries(PACKAGES))("%s's README, as npm shows it", (name, { dir, readme, manifest }) => {
  // npm renders the README of the tarball, where a relative link leads nowhere: every link is
  // absolute, into the repository that package.json names.
  const repository = manifest.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')
  const [, owner, repo] = /^https:\/\/github\.com\/([^/]+)\/([^/]+)$/.exec(repository) ?? []
  const intoRepository = [`${repository}/blob/main/`, `${repository}/tree/main/`, `https://raw.githubusercontent.com/${owner}/${repo}/main/`]

  it('names the repository, its own directory, a homepage, where to report bugs, and keywords', () => {
    expect(manifest.name).toBe(name)
    expect(repository).toBe('https://github.com/service-auth/service-auth')
    expect(manifest.repository.directory).toBe(dir)
    expect(manifest.homepage).toBe(`${repository}/tree/main/${dir}#readme`)
    expect(manifest.bugs).toEqual({ url: `${repository}/issues` })
    expect(manifest.keywords.length).toBeGreaterThan(2)
  })

  it('gives the controller check as `npx @service-auth/mock check-controller`, which runs from any directory', () => {
    // Where the package is not installed (a Python or PHP app), npx looks a bare
    // `service-auth-mock` up on the registry as a package of that name, which is not ours.
    expect(readme).toContain('npx @service-auth/mock check-controller --controller')
    expect(readme).not.toMatch(/npx service-auth-mock check-controller/)
  })

  it('links and shows images by absolute https URLs only, or by anchors of its own headings', () => {
    const links = linksOf(readme)
    expect(links.length).toBeGreaterThan(5)
    const anchors = anchorsOf(readme)
    for (const link of links) {
      if (link.startsWith('#')) expect(anchors, link).toContain(link.slice(1))
      else expect(link).toMatch(/^https:\/\/[^/\s]+\.[^/\s]+\//)
    }
  })

  it('points only at files of the repository that exist, and at headings that exist in them', async () => {
    const links = linksOf(readme).filter((link) => /^https:\/\/([\w.-]+\.)?github(usercontent)?\.com\//.test(link))
    expect(links.length).toBeGreaterThan(5)
    for (const link of links) {
      if (link === repository || link === `${repository}/issues`) continue
      // Into the repository package.json names, at main, and nowhere else on GitHub.
      const prefix = intoRepository.find((prefix) => link.startsWith(prefix))
      expect(prefix, `${link} leads into ${repository} at main`).toBeDefined()
      const [path, anchor] = decodeURIComponent(link.slice(prefix!.length)).split('#') as [string, string | undefined]
      expect(tracked(path), `${link}: ${path} is in git`).not.toBe('')
      if (anchor) expect(anchorsOf(await read(path)), link).toContain(anchor)
    }
  })
})

describe("the repository's README", () => {
  it('introduces both packages by their READMEs, and pins no hash of its own: the package README is the one place', () => {
    expect(repoReadme).toContain('](packages/service-auth/README.md)')
    expect(repoReadme).toContain('](packages/mock/README.md)')
    expect(repoReadme).not.toMatch(/sha384-/)
  })

  it("names the steps of npm test in package.json's order, the embed's size as its README gives it, and the number of language packs", async () => {
    const manifest = JSON.parse(await read('package.json'))
    const steps = [...manifest.scripts.test.matchAll(/npm run ([\w:]+)/g)].map(([, step]) => step)
    const bullet = /^- `npm test` runs ([\s\S]*?)\n- /m.exec(repoReadme)?.[1] ?? ''
    expect([...bullet.matchAll(/`([a-z]+(?::[a-z0-9]+)*)`/g)].map(([, step]) => step)).toEqual(steps)
    expect(/^npm test +# ([^\n]*)/m.exec(repoReadme)?.[1]).toMatch(new RegExp(`^${steps[0]}, `))
    const [, kilobytes] = /^A (\d+(?:\.\d)?) KB embed \(gzipped/m.exec(embedReadme) ?? []
    expect(repoReadme).toContain(`a ${kilobytes} KB CDN script`)
    const packs = tracked('packages/service-auth/src/languages').split('\n').length
    expect(repoReadme).toContain(`one file per language pack, ${packs} of them`)
  })

  it('links only to files and headings that exist', async () => {
    for (const link of linksOf(repoReadme)) {
      if (/^https?:/.test(link)) continue
      const [path, anchor] = link.split('#') as [string, string | undefined]
      if (path === '') {
        expect(anchorsOf(repoReadme), link).toContain(anchor)
        continue
      }
      expect(tracked(path), `${path} is in git`).not.toBe('')
      if (anchor) expect(anchorsOf(await read(path)), link).toContain(anchor)
    }
  })
})
