// @vitest-environment node
// What the README says about the API, held to the code: every export is documented, and the
// documented names exist.
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import * as embed from '../packages/service-auth/src/index.ts'
import * as server from '../packages/service-auth/src/server/index.ts'
import { recommendedPolicy } from '../demo/app/recommended-policy.ts'
import * as testing from '../packages/mock/src/index.ts'
import { DEFAULT_PORT } from '../packages/mock/src/service/service-config.ts'

const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8')
const section = (heading: string) => readme.slice(readme.indexOf(`## ${heading}`), readme.indexOf('\n## ', readme.indexOf(`## ${heading}`) + 3))

describe('README', () => {
  it('documents every export of the module under API', () => {
    const api = section('API')
    for (const name of Object.keys(embed)) expect(api, name).toContain(`\`${name}`)
  })

  it('documents every prop of the React component under React', async () => {
    const component = await readFile(new URL('../packages/service-auth/src/react.tsx', import.meta.url), 'utf8')
    const props = component.slice(component.indexOf('export interface ServiceAuthProps'), component.indexOf('\n}\n', component.indexOf('export interface ServiceAuthProps')))
    const names = [...props.matchAll(/^ {2}(\w+)\??:/gm)].map((match) => match[1]!)
    expect(names).toContain('onSuccess')
    const react = section('React')
    for (const name of names) expect(react, name).toContain(`\`${name}\``)
  })

  it('documents every export of service-auth/server, and every client method, under Your controller', () => {
    const controller = section('Your controller')
    for (const name of Object.keys(server)) expect(controller, name).toContain(name)
    const client = server.createClient({ baseUrl: 'https://api.example', key: 'k', secret: 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=' })
    for (const [name, value] of Object.entries(client)) {
      const methods = typeof value == 'function' ? [name] : Object.keys(value).map((method) => `${name}.${method}`)
      for (const method of methods) expect(controller, method).toMatch(new RegExp(`\`(${method.replace('.', '\\.')}|\\.${method.split('.').pop()})\\(`))
    }
  })

  it('recommends the policy the strict fixture sends, which the end-to-end tests sign in under: default-src, base-uri, object-src and frame-ancestors included', () => {
    const block = /```http\nContent-Security-Policy: ([^`]*?)\n```/.exec(section('Content-Security-Policy'))?.[1]
    expect(block?.replace(/\s*\n\s*/g, ' ')).toBe(recommendedPolicy().join('; '))
    expect(recommendedPolicy()).toEqual(expect.arrayContaining(["default-src 'none'", "base-uri 'none'", "object-src 'none'", "frame-ancestors 'none'"]))
  })

  it('documents every export of @service-auth/mock, the test keys and their secret, under Testing your sign-in', () => {
    const testingSection = section('Testing your sign-in')
    for (const name of Object.keys(testing)) expect(testingSection, name).toContain(`\`${name}`)
    for (const key of Object.values(testing.TEST_KEYS)) expect(testingSection).toContain(`| \`${key}\` |`)
    expect(testingSection).toContain(`| \`${testing.TEST_SECRET}\` |`)
  })

  it('shows a complete Playwright test in at most 15 lines, the one e2e/readme-example.spec.ts runs', async () => {
    const [, example] = /<!-- run: playwright -->\n```ts\n([\s\S]*?)```/.exec(readme) ?? []
    expect(example).toBeDefined()
    expect(example!.trimEnd().split('\n').length).toBeLessThanOrEqual(15)
    const spec = await readFile(new URL('../e2e/readme-example.spec.ts', import.meta.url), 'utf8')
    // The same code, but for where the app comes from: the README's own, the spec's the Express example.
    expect(spec.endsWith(example!.replace("from './app.mjs'", "from '../examples/express/app.mjs'"))).toBe(true)
  })

  it('has the CDN snippet name the mock service\'s address in data-service-api, with a test key that works as written', () => {
    const installation = section('Installation')
    expect(installation).toMatch(new RegExp(`data-service-key="${testing.TEST_KEYS.signs}"[^>]*\\s+data-service-api="http://127\\.0\\.0\\.1:${DEFAULT_PORT}"></div>`))
  })
})
