// The element under React 19's StrictMode and the Vue component, each in a page bundled by esbuild
// from the built package (as an integrator's bundler resolves it), against the mock service: each
// widget asks for one code, however often its framework renders or runs its effects, and a
// changed API key asks for a new one, with that key.
import { once } from 'node:events'
import { readFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { fileURLToPath } from 'node:url'
import { expect, test, type Page } from '@playwright/test'
import { startMockService, TEST_KEYS, type MockService } from '@service-auth/mock'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('..', import.meta.url))

/** A page's script, bundled: development builds, where StrictMode runs effects twice. */
async function bundle(entry: string): Promise<string> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    jsx: 'automatic',
    define: {
      'process.env.NODE_ENV': '"development"',
      __VUE_OPTIONS_API__: 'false',
      __VUE_PROD_DEVTOOLS__: 'false',
      __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
    },
    // Not the repository's tsconfig, whose paths lead `service-auth` to the sources: the package
    // resolves by its own name to dist/, as it does once installed.
    tsconfigRaw: {},
    logLevel: 'silent',
  })
  return result.outputFiles[0]!.text
}

let service: MockService
let server: Server
let origin: string

test.beforeAll(async () => {
  service = await startMockService()
  const dist = (name: string) => readFile(`${root}packages/service-auth/dist/${name}`, 'utf8')
  const [react, vue, css, cdn, element] = await Promise.all([
    bundle('e2e/element-react-page.tsx'),
    bundle('e2e/vue-page.ts'),
    dist('service-auth.css'),
    dist('service-auth.js'),
    dist('service-auth-element.js'),
  ])
  const scripts: Record<string, string> = { '/react.js': react, '/vue.js': vue, '/service-auth.js': cdn, '/service-auth-element.js': element }
  server = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname
    if (scripts[path]) return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(scripts[path])
    if (path === '/service-auth.css') return res.writeHead(200, { 'Content-Type': 'text/css' }).end(css)
    if (path === '/html') {
      // The CDN way: the script, then the element's script, and the element in the markup.
      return res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><link rel="icon" href="data:,"><title>html</title><link rel="stylesheet" href="/service-auth.css">
<script src="/service-auth.js" defer></script><script src="/service-auth-element.js" defer></script>
<main><service-auth api-key="${service.key}" auth-url="/auth/controller" api="${service.url}"></service-auth></main></html>`)
    }
    const page = /^\/(react|vue)$/.exec(path)?.[1]
    if (!page) return res.writeHead(404).end()
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><link rel="icon" href="data:,"><title>${page}</title><link rel="stylesheet" href="/service-auth.css">
<div id="root" data-api="${service.url}" data-key="${service.key}" data-other-key="${TEST_KEYS.signs}"></div>
<script src="/${page}.js"></script></html>`)
  }).listen(0, '127.0.0.1')
  await once(server, 'listening')
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
test.afterAll(async () => {
  server?.close()
  await service?.close()
})

/** The keys of the page's challenge requests, in order, as they leave the browser. */
function creations(page: Page): string[] {
  const keys: string[] = []
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/v1/entity/challenges') keys.push(request.postDataJSON().key)
  })
  return keys
}

const ready = (page: Page) => page.evaluate(() => (window as unknown as { __ready: Record<string, string[]> }).__ready)

for (const [name, path] of [
  ['the element under React 19 StrictMode', '/react'],
  ['the Vue component', '/vue'],
] as const) {
  test(`${name}: each widget asks for one code; a changed api-key asks for a new one, with it`, async ({ page }) => {
    const consoleErrors: string[] = []
    page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()))
    const keys = creations(page)
    await page.goto(origin + path)
    const first = page.locator('.first')
    const second = page.locator('.second')
    await expect(first.getByRole('status')).toHaveText('Scan the first')
    await expect(second.getByRole('status')).toHaveText('Scan with the app')
    await expect(first.getByRole('img', { name: 'QR code: sign in with the app' })).toBeVisible()
    expect(keys).toEqual([service.key, service.key])
    // The framework's own event binding heard each code: one each.
    expect(await ready(page)).toEqual({ first: [expect.any(String)], second: [expect.any(String)] })

    if (path === '/vue') {
      // A re-render with new inline texts and listeners keeps both codes.
      await page.getByRole('button', { name: 'Render again' }).click()
      await expect(page.getByText('Renders: 1')).toBeVisible()
    }
    const before = await ready(page)
    await page.getByRole('button', { name: 'Use the other key' }).click()
    await expect.poll(() => keys).toEqual([service.key, service.key, TEST_KEYS.signs])
    await expect(first.getByRole('status')).toHaveText('Scan the first')
    const after = await ready(page)
    expect(after.first).toHaveLength(2)
    expect(after.first![1]).not.toBe(before.first![0])
    expect(after.second).toEqual(before.second)
    // And at the service: three challenges, the last with the other key.
    expect(keys).toHaveLength(3)
    expect(consoleErrors).toEqual([])
  })
}

test('the element from the CDN, beside the script: one code; removed, its poll is aborted and it asks nothing more; put back, a new code; start(), stop() and state', async ({
  page,
}) => {
  const consoleErrors: string[] = []
  page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()))
  const keys = creations(page)
  const asked: string[] = []
  page.on('request', (request) => new URL(request.url()).origin === service.url && asked.push(request.url()))
  await page.goto(origin + '/html')
  const element = page.locator('service-auth')
  await expect(element.getByRole('status')).toHaveText('Scan with the app')
  expect(await element.evaluate((el) => (el as HTMLElementTagNameMap['service-auth']).state)).toBe('ready')
  expect(keys).toEqual([service.key])

  // Out of the page: everything stops. The mock holds the next poll, so that one is in flight
  // when the element goes: it is aborted (no sleep to prove a silence).
  await service.holdNext({ match: 'status', count: 1 })
  await expect.poll(async () => (await service.held()).length).toBe(1)
  const aborted = page.waitForEvent('requestfailed', (request) => /\/status\b/.test(request.url()))
  const sinceRemoval = asked.length
  await element.evaluate((el) => {
    ;(window as unknown as { __kept: Element }).__kept = el
    el.remove()
  })
  const poll = await aborted
  await service.release()
  expect(await page.evaluate(() => (window as unknown as { __kept: HTMLElementTagNameMap['service-auth'] }).__kept.state)).toBeUndefined()
  await page.evaluate(() => document.querySelector('main')!.append((window as unknown as { __kept: Element }).__kept))
  await expect(element.getByRole('status')).toHaveText('Scan with the app')
  expect(keys).toEqual([service.key, service.key])
  // Since the removal: the new code's requests only, none about the old one.
  const oldChallenge = /challenges\/([^/]+)\/status/.exec(poll.url())![1]!
  expect(asked.slice(sinceRemoval).filter((url) => url.includes(oldChallenge))).toEqual([])

  await element.evaluate((el) => (el as HTMLElementTagNameMap['service-auth']).stop())
  expect(await element.evaluate((el) => (el as HTMLElementTagNameMap['service-auth']).state)).toBe('idle')
  await element.evaluate((el) => (el as HTMLElementTagNameMap['service-auth']).start())
  await expect(element.getByRole('status')).toHaveText('Scan with the app')
  expect(keys).toHaveLength(3)
  expect(consoleErrors).toEqual([])
})
