// @vitest-environment node
// Which browser the end-to-end tests drive: CHROMIUM_PATH first, then Playwright's own, then Debian's.
import { existsSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { chromiumLaunchOptions } from '../e2e/chromium.js'

vi.mock('node:fs', async (original) => ({ ...(await original<typeof import('node:fs')>()), existsSync: vi.fn() }))
vi.mock('@playwright/test', () => ({ chromium: { executablePath: vi.fn(() => '/playwright/chromium') } }))

const exists = vi.mocked(existsSync)

describe('chromiumLaunchOptions', () => {
  afterEach(() => vi.unstubAllEnvs())

  it('uses CHROMIUM_PATH when set, with the flags this closed network needs', () => {
    vi.stubEnv('CHROMIUM_PATH', '/opt/chromium/chrome')
    exists.mockReturnValue(true)
    const options = chromiumLaunchOptions()
    expect(options.executablePath).toBe('/opt/chromium/chrome')
    expect(options.args).toEqual(
      expect.arrayContaining([
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ]),
    )
  })

  it('says so when CHROMIUM_PATH points nowhere', () => {
    vi.stubEnv('CHROMIUM_PATH', '/nowhere/chrome')
    exists.mockReturnValue(false)
    expect(() => chromiumLaunchOptions()).toThrow('CHROMIUM_PATH is set to /nowhere/chrome')
  })

  it("prefers Playwright's own Chromium when it is installed", () => {
    vi.stubEnv('CHROMIUM_PATH', '')
    exists.mockImplementation((path) => path === '/playwright/chromium')
    expect(chromiumLaunchOptions().executablePath).toBeUndefined()
  })

  it("falls back to Debian's /usr/bin/chromium", () => {
    vi.stubEnv('CHROMIUM_PATH', '')
    exists.mockImplementation((path) => path === '/usr/bin/chromium')
    expect(chromiumLaunchOptions().executablePath).toBe('/usr/bin/chromium')
  })

  it('without any browser, fails with a message saying how to get one', () => {
    vi.stubEnv('CHROMIUM_PATH', '')
    exists.mockReturnValue(false)
    expect(() => chromiumLaunchOptions()).toThrow(/apt-get install -y chromium.*CHROMIUM_PATH/)
  })
})
