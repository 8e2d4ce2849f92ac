// @vitest-environment node
// How `npm run service` is configured: the environment, a JSON file under it, generated
// credentials when none are given, and start-up errors that name the bad setting.
import { describe, expect, it } from 'vitest'
import { DEFAULT_PORT, readCommandLine } from '../../src/command/options.js'
import { loadServiceConfig } from '../../src/command/service-config.js'

const commandLine = (args: string[]) => readCommandLine(args, ['knobsOrigins', 'allowedHosts'])

const SECRET = Buffer.alloc(32, 7).toString('base64')
const file = (config: unknown) => () => JSON.stringify(config)

/** What `run` throws, as its message; it must throw. */
function messageOf(run: () => unknown): string {
  try {
    run()
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('It did not throw.')
}

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

  it('SERVICE_KNOBS takes 1 or true and 0 or false; any other value stops the start, never leaving the knobs on', () => {
    for (const [value, knobs] of [
      ['1', true],
      ['true', true],
      ['TRUE', true],
      ['0', false],
      ['false', false],
      [' False ', false],
    ] as const) {
      expect(loadServiceConfig({ SERVICE_KNOBS: value }).options.knobs, value).toBe(knobs)
    }
    for (const value of ['off', 'no', 'yes', 'on', '2', 'constructor']) {
      expect(() => loadServiceConfig({ SERVICE_KNOBS: value }), value).toThrow(
        new Error(`SERVICE_KNOBS "${value}" must be 1 or true (on), or 0 or false (off).`),
      )
    }
  })

  it("SERVICE_ALLOWED_ORIGINS: a trailing slash is dropped; what can never be a page's Origin stops the start, naming the variable, the value and the right form", () => {
    const origins = (value: string) => loadServiceConfig({ SERVICE_ALLOWED_ORIGINS: value }).options.keys[0]!.allowedOrigins
    expect(origins('http://127.0.0.1:3000/, https://Shop.Example:443')).toEqual(['http://127.0.0.1:3000', 'https://shop.example'])
    for (const [value, problem] of [
      ['127.0.0.1:3000', 'it has no scheme. Write http://127.0.0.1:3000.'],
      ['http://127.0.0.1:3000/login', 'it has a path. Write http://127.0.0.1:3000.'],
      ['http://127.0.0.1:3000/?next=/', 'it has a query. Write http://127.0.0.1:3000.'],
      ['ftp://127.0.0.1:3000', 'its scheme must be http or https, as in http://127.0.0.1:3000.'],
      ['*', 'a wildcard matches no page; name each origin, such as http://127.0.0.1:3000.'],
    ]) {
      expect(() => origins(`https://a.example,${value}`), value).toThrow(new Error(`SERVICE_ALLOWED_ORIGINS "${value}" is not an origin: ${problem}`))
    }
  })

  it('SERVICE_API_SECRET must decode to at least 32 bytes, as the service issues it; the message says how to make one, and never shows it', () => {
    expect(() => loadServiceConfig({ SERVICE_API_KEY: 'shop', SERVICE_API_SECRET: 'changeme' })).toThrow(
      new Error(
        'SERVICE_API_SECRET: The API secret decodes to 6 bytes; it must be at least 32, as the service issues it. Is it a placeholder or cut short? ' +
          "Make one with `openssl rand -base64 32` or `node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\"`.",
      ),
    )
    const short = Buffer.alloc(31, 7).toString('base64')
    expect(() => loadServiceConfig({ SERVICE_API_SECRET: short })).toThrow(/^SERVICE_API_SECRET: The API secret decodes to 31 bytes; it must be at least 32/)
    expect(messageOf(() => loadServiceConfig({ SERVICE_API_SECRET: short }))).not.toContain(short)
    expect(() => loadServiceConfig({ SERVICE_API_SECRET: 'not Base64!' })).toThrow(new Error('SERVICE_API_SECRET: The API secret is not Base64 text.'))
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

  it("a key's secret must decode to at least 32 bytes, named by its place in the file", () => {
    const load = (value: unknown) => () => loadServiceConfig({ SERVICE_CONFIG: 'service.json' }, file(value))
    expect(
      load({
        keys: [
          { key: 'k', secret: SECRET },
          { key: 'short', secret: 'c2hvcnQ=' },
        ],
      }),
    ).toThrow(
      /^service\.json: keys\[1\]\.secret: The API secret decodes to 5 bytes; it must be at least 32, as the service issues it\. Is it a placeholder or cut short\? Make one with `openssl rand -base64 32`/,
    )
    expect(messageOf(load({ keys: [{ key: 'k', secret: 'c2hvcnQ=' }] }))).not.toContain('c2hvcnQ=')
  })

  it("a key's allowedOrigins: a trailing slash is dropped; anything but an origin stops the start, named by its place in the file", () => {
    const load = (allowedOrigins: unknown) => () =>
      loadServiceConfig({ SERVICE_CONFIG: 'service.json' }, file({ keys: [{ key: 'k', secret: SECRET, allowedOrigins }] }))
    expect(load(['http://127.0.0.1:3000/', 'https://shop.example'])().options.keys[0]!.allowedOrigins).toEqual([
      'http://127.0.0.1:3000',
      'https://shop.example',
    ])
    expect(load(['https://shop.example', '127.0.0.1:3000'])).toThrow(
      new Error('service.json: keys[0].allowedOrigins[1] "127.0.0.1:3000" is not an origin: it has no scheme. Write http://127.0.0.1:3000.'),
    )
    expect(load(['http://127.0.0.1:3000/login'])).toThrow(
      new Error('service.json: keys[0].allowedOrigins[0] "http://127.0.0.1:3000/login" is not an origin: it has a path. Write http://127.0.0.1:3000.'),
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

  it('the knobs origins go through the same check, each named by where it was given', () => {
    const load =
      (env: Record<string, string>, config: object = {}, args: string[] = []) =>
      () =>
        loadServiceConfig({ SERVICE_CONFIG: 'service.json', ...env }, file({ keys: [{ key: 'k', secret: SECRET }], ...config }), { line: commandLine(args) })
    expect(
      load({ SERVICE_KNOBS_ORIGIN: 'http://127.0.0.1:3000/' }, { knobsOrigins: ['http://127.0.0.1:5173/'] }, ['--knobs-origin', 'HTTP://A.test/'])().options
        .knobsOrigins,
    ).toEqual(['http://127.0.0.1:5173', 'http://127.0.0.1:3000', 'http://a.test'])
    const notOrigin = 'is not an origin: it has a path. Write http://a.test.'
    expect(load({ SERVICE_KNOBS_ORIGIN: 'http://a.test/x' })).toThrow(new Error(`SERVICE_KNOBS_ORIGIN "http://a.test/x" ${notOrigin}`))
    expect(load({}, {}, ['--knobs-origin=http://b.test,http://a.test/x'])).toThrow(new Error(`--knobs-origin "http://a.test/x" ${notOrigin}`))
    expect(load({}, { knobsOrigins: ['http://a.test/x'] })).toThrow(new Error(`service.json: knobsOrigins[0] "http://a.test/x" ${notOrigin}`))
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
