// @vitest-environment node
// How `npm run service` is configured: the environment, a JSON file under it, generated
// credentials when none are given, and start-up errors that name the bad setting.
import { describe, expect, it } from 'vitest'
import { DEFAULT_PORT, readCommandLine } from '../../src/command/options.js'
import { loadServiceConfig } from '../../src/command/service-config.js'

const commandLine = (args: string[]) => readCommandLine(args, ['knobsOrigins', 'allowedHosts'])

const SECRET = Buffer.alloc(32, 7).toString('base64')
const file = (config: unknown) => () => JSON.stringify(config)

describe('the environment alone', () => {
  it('generates a key and secret when none are given, and says which it made', () => {
    const { options, generated } = loadServiceConfig({})
    expect(options.port).toBe(DEFAULT_PORT)
    expect(options.keys).toEqual([{ key: generated.key, secret: generated.secret, allowedOrigins: [] }])
    expect(Buffer.from(generated.secret!, 'base64')).toHaveLength(32)
  })

  it('SERVICE_PORT, SERVICE_API_KEY, SERVICE_API_SECRET, SERVICE_ALLOWED_ORIGINS, SERVICE_KNOBS', () => {
    const { options, generated } = loadServiceConfig({
      SERVICE_PORT: '9000',
      SERVICE_API_KEY: 'shop',
      SERVICE_API_SECRET: SECRET,
      SERVICE_ALLOWED_ORIGINS: 'https://a.example, https://b.example',
      SERVICE_KNOBS: '1',
    })
    expect(options).toMatchObject({
      port: 9000,
      knobs: true,
      keys: [{ key: 'shop', secret: SECRET, allowedOrigins: ['https://a.example', 'https://b.example'] }],
    })
    expect(generated).toEqual({ key: undefined, secret: undefined })
  })

  it('refuses a port that is not one', () => {
    expect(() => loadServiceConfig({ SERVICE_PORT: 'http' })).toThrow(/SERVICE_PORT/)
    expect(() => loadServiceConfig({ SERVICE_PORT: '70000' })).toThrow(/port number/)
  })
})

describe('SERVICE_CONFIG', () => {
  const config = {
    port: 8090,
    knobs: true,
    holdMs: 500,
    rateLimit: 100,
    keys: [
      { key: 'shop-web', secret: SECRET, app: 'shop', allowedOrigins: ['https://shop.example'], permissions: ['challenges', 'authenticate'] },
      { key: 'shop-admin', secret: SECRET, app: 'shop' },
    ],
  }

  it('reads several keys and the settings; nothing is generated', () => {
    const { options, generated } = loadServiceConfig({ SERVICE_CONFIG: 'service.json' }, file(config))
    expect(options).toMatchObject({ port: 8090, knobs: true, holdMs: 500, rateLimit: 100 })
    expect(options.keys.map((key) => key.key)).toEqual(['shop-web', 'shop-admin'])
    expect(options.keys[0]!.permissions).toEqual(['challenges', 'authenticate'])
    expect(generated).toEqual({})
  })

  it('the environment goes on top: its port wins and its key is added, or replaces one of the same name', () => {
    const { options } = loadServiceConfig(
      { SERVICE_CONFIG: 'service.json', SERVICE_PORT: '0', SERVICE_API_KEY: 'shop-web', SERVICE_API_SECRET: SECRET },
      file(config),
    )
    expect(options.port).toBe(0)
    expect(options.keys.map((key) => [key.key, key.permissions])).toEqual([
      ['shop-web', undefined],
      ['shop-admin', undefined],
    ])
  })

  it('names the bad setting: unknown fields, wrong types, unknown permissions, not JSON', () => {
    const load = (value: unknown) => () => loadServiceConfig({ SERVICE_CONFIG: 'service.json' }, file(value))
    expect(load({ hold: 5 })).toThrow(/unknown hold/)
    expect(load({ holdMs: '5' })).toThrow(/holdMs must be an integer/)
    expect(load({ keys: [{ key: 'k', secret: SECRET, permissions: ['admin'] }] })).toThrow(/keys\[0\]\.permissions: unknown admin/)
    expect(load({ keys: [{ key: 'k' }] })).toThrow(/keys\[0\]\.secret/)
    expect(load([])).toThrow(/JSON object/)
    expect(() => loadServiceConfig({ SERVICE_CONFIG: 'service.json' }, () => '{')).toThrow(/cannot be read as JSON/)
    expect(() => loadServiceConfig({ SERVICE_CONFIG: 'service.json', SERVICE_ALLOWED_ORIGINS: 'https://a.example' }, file(config))).toThrow(
      /SERVICE_ALLOWED_ORIGINS/,
    )
  })
})

describe('who may reach the service', () => {
  it('knobsOrigins and allowedHosts from the file, SERVICE_KNOBS_ORIGIN and SERVICE_ALLOWED_HOSTS, then --knobs-origin and --allowed-hosts, each adding', () => {
    const { options } = loadServiceConfig(
      { SERVICE_CONFIG: 'service.json', SERVICE_KNOBS_ORIGIN: 'http://127.0.0.1:3000, http://localhost:3000', SERVICE_ALLOWED_HOSTS: 'vm.test' },
      file({ knobsOrigins: ['http://127.0.0.1:5173'], allowedHosts: ['file.test:8081'], keys: [{ key: 'k', secret: SECRET }] }),
      { line: commandLine(['--knobs-origin', 'https://tools.example', '--allowed-hosts=a.test,b.test:9000', '--knobs-origin=http://127.0.0.1:4000']) },
    )
    expect(options.knobsOrigins).toEqual([
      'http://127.0.0.1:5173',
      'http://127.0.0.1:3000',
      'http://localhost:3000',
      'https://tools.example',
      'http://127.0.0.1:4000',
    ])
    expect(options.allowedHosts).toEqual(['file.test:8081', 'vm.test', 'a.test', 'b.test:9000'])
  })

  it("none by default: the knobs answer the service's own pages only, and are off unless SERVICE_KNOBS=1", () => {
    const { options } = loadServiceConfig({})
    expect(options).toMatchObject({ knobsOrigins: [], allowedHosts: [] })
    expect(options.knobs).toBeUndefined()
  })

  it('the command line refuses an unknown option or one without its value', () => {
    expect(() => commandLine(['--knobs-origins', 'x'])).toThrow(/Unknown option '--knobs-origins'/)
    expect(() => commandLine(['--allowed-hosts'])).toThrow(/--allowed-hosts <value>' argument missing/)
  })
})

describe('behind a proxy', () => {
  it('clientAddressHeader from the file, or SERVICE_CLIENT_ADDRESS_HEADER over it', () => {
    const config = file({ clientAddressHeader: 'X-Real-IP', keys: [{ key: 'k', secret: SECRET }] })
    expect(loadServiceConfig({ SERVICE_CONFIG: 'service.json' }, config).options.clientAddressHeader).toBe('X-Real-IP')
    expect(loadServiceConfig({ SERVICE_CONFIG: 'service.json', SERVICE_CLIENT_ADDRESS_HEADER: 'X-Forwarded-For' }, config).options.clientAddressHeader).toBe(
      'X-Forwarded-For',
    )
    expect(loadServiceConfig({}).options.clientAddressHeader).toBeUndefined()
  })
})
