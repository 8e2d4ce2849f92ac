// @vitest-environment node
// What the README says about the API, held to the code: every export is documented, and the
// documented names exist.
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import * as embed from '../src/index.ts'
import * as server from '../src/server/index.ts'
import { recommendedPolicy } from '../demo/app/recommended-policy.ts'

const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8')
const section = (heading: string) => readme.slice(readme.indexOf(`## ${heading}`), readme.indexOf('\n## ', readme.indexOf(`## ${heading}`) + 3))

describe('README', () => {
  it('documents every export of the module under API', () => {
    const api = section('API')
    for (const name of Object.keys(embed)) expect(api, name).toContain(`\`${name}`)
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
})
