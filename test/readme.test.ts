// @vitest-environment node
// What the README says about the API, held to the code: every export is documented, and the
// documented names exist.
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import * as embed from '../src/index.ts'
import * as server from '../src/server/index.ts'

const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8')
const section = (heading: string) => readme.slice(readme.indexOf(`## ${heading}`), readme.indexOf('\n## ', readme.indexOf(`## ${heading}`) + 3))

describe('README', () => {
  it('documents every export of the module under API', () => {
    const api = section('API')
    for (const name of Object.keys(embed)) expect(api, name).toContain(`\`${name}`)
  })

  it('documents every prop of the React component under React', async () => {
    const component = await readFile(new URL('../src/react.tsx', import.meta.url), 'utf8')
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
})
