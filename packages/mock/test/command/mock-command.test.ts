// @vitest-environment node
// `service-auth-mock`'s command line: its options over the environment and the config file, its
// mistakes (which name the option), its help, and the lines it prints to copy.
import { describe, expect, it } from 'vitest'
import { TEST_KEYS as MOCK_TEST_KEYS, TEST_SECRET as MOCK_TEST_SECRET } from '../../src/service/test-keys/published-keys.js'
import { readMockCommand, startLines } from '../../src/command/mock-command.js'
import { COMMAND_OPTIONS, UsageError } from '../../src/command/options.js'
import { commandHelp } from '../../src/command/usage.js'
import { TEST_KEYS, TEST_SECRET } from '../../src/index.js'

const SECRET = Buffer.alloc(32, 7).toString('base64')
const noFile = () => {
  throw new Error('no file should be read')
}
const read = (args: string[], env: Record<string, string> = {}, readFile: (path: string) => string = noFile) => {
  const command = readMockCommand(args, env, readFile)
  if (command.help) throw new Error('expected a start, not the help')
  return command.configure()
}

describe('readMockCommand', () => {
  it('starts on 8081 with knobs, the test keys (signed by test@example.com) and a generated key', () => {
    const { options, generated } = read([])
    expect(options).toMatchObject({ port: 8081, knobs: true, testKeys: { identity: 'test@example.com' } })
    expect(options.keys).toEqual([{ key: generated.key, secret: generated.secret, allowedOrigins: [] }])
    // A made-up key says whose it is: the mock's.
    expect(generated.key).toMatch(/^mock-[\w-]{12}$/)
  })

  it('--port wins over SERVICE_PORT, which wins over the file; --config over SERVICE_CONFIG', () => {
    const files: Record<string, string> = { 'a.json': JSON.stringify({ port: 9001, holdMs: 5 }), 'b.json': JSON.stringify({ port: 9002 }) }
    expect(read(['--config', 'a.json'], { SERVICE_CONFIG: 'b.json' }, (path) => files[path]!).options).toMatchObject({ port: 9001, holdMs: 5 })
    expect(read(['--config', 'a.json'], { SERVICE_PORT: '9003' }, (path) => files[path]!).options.port).toBe(9003)
    expect(read(['--config', 'a.json', '--port', '0'], { SERVICE_PORT: '9003' }, (path) => files[path]!).options.port).toBe(0)
  })

  it('--base-url, --test-identity, --no-test-keys, --no-knobs', () => {
    expect(read(['--base-url', 'https://auth.example']).options.baseUrl).toBe('https://auth.example')
    expect(read(['--test-identity', 'ada@example.com']).options.testKeys).toEqual({ identity: 'ada@example.com' })
    expect(read(['--no-test-keys']).options.testKeys).toBe(false)
    expect(read(['--no-knobs']).options.knobs).toBe(false)
  })

  it('leaves the knobs off where the file, SERVICE_KNOBS=0 or SERVICE_KNOBS=false says so, and refuses a value it does not know', () => {
    expect(read(['--config', 'c.json'], {}, () => JSON.stringify({ knobs: false })).options.knobs).toBe(false)
    expect(read([], { SERVICE_KNOBS: '0' }).options.knobs).toBe(false)
    expect(read([], { SERVICE_KNOBS: 'false' }).options.knobs).toBe(false)
    expect(() => read([], { SERVICE_KNOBS: 'off' })).toThrow('SERVICE_KNOBS "off" must be 1 or true (on), or 0 or false (off).')
  })

  it('says which option is wrong', () => {
    expect(() => read(['--prot', '80'])).toThrow(UsageError)
    expect(() => read(['--prot', '80'])).toThrow(/--prot/)
    expect(() => read(['--port'])).toThrow(/--port/)
    expect(() => read(['extra'])).toThrow(UsageError)
    expect(() => read(['--no-test-keys', '--test-identity', 'ada@example.com'])).toThrow(/Choose one/)
    for (const port of ['http', '70000', '', '1.5']) expect(() => read(['--port', port])).toThrow(`--port "${port}"`)
    expect(() =>
      read(['--config', 'missing.json'], {}, () => {
        throw new Error('ENOENT')
      }),
    ).toThrow(/^--config missing\.json cannot be read as JSON: ENOENT/)
  })

  it('--help asks for the help, which lists every option', () => {
    expect(readMockCommand(['--port', '1', '--help'], {})).toEqual({ help: true })
    for (const option of Object.values(COMMAND_OPTIONS)) if ('flag' in option) expect(commandHelp()).toContain(`--${option.flag}`)
  })
})

describe('startLines', () => {
  const settings = { rateLimit: 600, browserRateLimit: 120, rateLimitWindowMs: 60_000, enrollmentTimeoutSeconds: 86_400 }

  it("prints the service, the credentials, the markup and the controller's three variables, each on a line of its own", () => {
    const config = read([])
    const { key, secret } = config.options.keys[0]!
    const lines = startLines(config, { url: 'http://127.0.0.1:8081', settings })
    expect(lines[0]).toBe('Service: http://127.0.0.1:8081')
    expect(lines).toContain(`API secret of ${key} (generated, Base64): ${secret}`)
    expect(lines).toContain(
      `<div data-service-auth data-service-key="${key}" data-service-auth-url="/auth/controller" data-service-api="http://127.0.0.1:8081"></div>`,
    )
    const variables = lines.filter((line) => line.startsWith('SERVICE_'))
    expect(variables).toEqual(['SERVICE_URL=http://127.0.0.1:8081', `SERVICE_KEY=${key}`, `SERVICE_SECRET=${secret}`])
    expect(lines.find((line) => line.startsWith('Test keys'))).toBe(
      `Test keys, each with the secret ${TEST_SECRET}: test-signs (test@example.com's phone signs each code 1 s after its first poll), test-expires (codes expire after 5 s), test-unavailable (503, Retry-After: 5)`,
    )
    expect(lines).toContain('Knobs: http://127.0.0.1:8081/__knobs/')
  })

  it('says a made-up key and secret the state kept are kept, not generated anew', () => {
    const config = read([])
    const { key, secret } = config.options.keys[0]!
    const lines = startLines(config, { url: 'http://127.0.0.1:8081', settings }, { kept: true })
    expect(lines.filter((line) => line.startsWith('API '))).toEqual([
      expect.stringMatching(new RegExp(`^API key \\(kept with the state\\): ${key} `)),
      `API secret of ${key} (kept with the state, Base64): ${secret}`,
    ])
  })

  it('names the public base URL where one is set, and never prints a secret it did not make', () => {
    const config = read(['--base-url', 'https://auth.example/', '--no-test-keys', '--no-knobs'], { SERVICE_API_KEY: 'shop', SERVICE_API_SECRET: SECRET })
    const lines = startLines(config, { url: 'http://127.0.0.1:8081', settings })
    expect(lines[0]).toBe('Service: http://127.0.0.1:8081 (signed requests name https://auth.example)')
    expect(lines.join('\n')).not.toContain(SECRET)
    expect(lines).toContain('SERVICE_URL=https://auth.example')
    expect(lines).toContain('SERVICE_SECRET=  (the secret configured for shop; not printed)')
    expect(lines.some((line) => line.startsWith('Test keys'))).toBe(false)
    expect(lines).toContain('Knobs: off')
  })
})

describe('the test keys as @service-auth/mock names them', () => {
  it("are the mock's, with its secret", () => {
    expect(TEST_KEYS).toBe(MOCK_TEST_KEYS)
    expect(TEST_SECRET).toBe(MOCK_TEST_SECRET)
  })
})
