// @vitest-environment node
// Safe to leave running: the knobs answer only the service's own pages and the origins it is
// given, a page elsewhere is refused before its request acts (whatever its content type), and a
// request naming another Host is refused everywhere, against DNS rebinding. Browsers' requests
// are played with the headers they send; Node's own requests carry neither Origin nor
// Sec-Fetch-Site, as tests, curl and the official clients do.
import { describe, expect, it } from 'vitest'
import { startService } from '../../src/service/server.js'
import { withHost } from '@service-auth/http'
import { newKey, problemOf, useService } from './helpers.js'

const APP = 'http://127.0.0.1:3000'
const service = useService({ knobsOrigins: [APP], allowedHosts: ['dev.example.test', 'pinned.example.test:4000'] })

/** A knob request as a page on `origin` sends it, with what the browser adds. */
const fromPage = (path: string, origin: string | undefined, init: RequestInit & { site?: string } = {}) =>
  fetch(`${service.url}/__knobs/${path}`, {
    ...init,
    headers: { ...(origin && { Origin: origin }), ...(init.site && { 'Sec-Fetch-Site': init.site }), ...(init.headers as Record<string, string>) },
  })

const identities = async () => (await service.api('GET', '/v1/entity/identities')).json() as Promise<unknown[]>

describe('the knobs answer their own pages', () => {
  it("the origin they are given and the service's own: CORS for that origin, never *", async () => {
    for (const origin of [APP, service.url, service.url.replace('127.0.0.1', 'localhost')]) {
      const res = await fromPage('requests', origin, { site: 'same-site' })
      expect(res.status, origin).toBe(200)
      expect(res.headers.get('access-control-allow-origin')).toBe(origin)
      expect(res.headers.get('vary')).toContain('Origin')
    }
    const preflight = await fromPage('reset', APP, {
      method: 'OPTIONS',
      headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP)
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Content-Type')
  })

  it('clients that are not browsers (no Origin, no Sec-Fetch-Site) and a person typing the URL (Sec-Fetch-Site: none)', async () => {
    expect((await fromPage('requests', undefined)).status).toBe(200)
    expect((await fromPage('requests', undefined, { site: 'none' })).headers.get('access-control-allow-origin')).toBeNull()
    expect((await fromPage('requests', undefined, { site: 'none' })).status).toBe(200)
  })
})

describe('a page of any other origin', () => {
  it.each([
    ['another port of the same host (same-site)', 'http://127.0.0.1:3001', 'same-site'],
    ['another site', 'https://evil.example', 'cross-site'],
    ['a sandboxed frame or a file: page', 'null', 'cross-site'],
  ])('%s is refused before it acts: a no-cors text/plain reset resets nothing', async (_, origin, site) => {
    await service.provisionPhone('ada@example.com')
    const res = await fromPage('reset', origin, { site, method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '' })
    expect(res.status).toBe(403)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    expect((await problemOf(res)).detail).toMatch(/--knobs-origin/)
    expect(await identities()).toHaveLength(1)
  })

  it('cannot read the request log, sign a challenge or provision a phone', async () => {
    const evil = 'http://localhost:5173'
    const { id } = await service.createChallenge()
    await service.provisionPhone('ada@example.com')
    expect((await fromPage('requests', evil, { site: 'same-site' })).status).toBe(403)
    const sign = await fromPage(`challenges/${id}/sign`, evil, {
      site: 'same-site',
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: '{"identifier":"ada@example.com"}',
    })
    expect(sign.status).toBe(403)
    const [challenge] = await (await service.knob('challenges', undefined, 'GET')).json()
    expect(challenge.state).toBe('pending')
    expect((await fromPage('devices', evil, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"token":"x"}' })).status).toBe(403)
  })

  it('without an Origin (a link, an image), Sec-Fetch-Site still tells: cross-site and same-site are refused', async () => {
    for (const site of ['cross-site', 'same-site']) expect((await fromPage('requests', undefined, { site })).status).toBe(403)
  })
})

describe('the Host header, against DNS rebinding', () => {
  it('another name is refused everywhere: the knobs, the signed API and the unsigned', async () => {
    const port = new URL(service.url).port
    for (const path of ['/__knobs/requests', '/v1/entity/identities', '/v1/entity/challenges/x/status']) {
      expect(await withHost(service.url + path, `evil.example:${port}`), path).toBe(403)
      expect(await withHost(service.url + path, 'dev.example.test.evil.example')).toBe(403)
    }
  })

  it('its own names pass: 127.0.0.1 and localhost with its port, and what allowedHosts names', async () => {
    const port = new URL(service.url).port
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `LOCALHOST:${port}`,
      `dev.example.test:${port}`,
      'dev.example.test',
      'pinned.example.test:4000',
    ]) {
      expect(await withHost(service.url + '/__knobs/requests', host), host).toBe(200)
    }
    expect(await withHost(service.url + '/__knobs/requests', `localhost:${Number(port) + 1}`)).toBe(403)
    expect(await withHost(service.url + '/__knobs/requests', 'pinned.example.test:4001')).toBe(403)
  })
})

describe('a service behind a proxy', () => {
  const proxied = useService({ baseUrl: 'https://auth.example.test/mock' })

  it("answers the base URL's host, and its origin may use the knobs", async () => {
    expect(await withHost(proxied.url + '/__knobs/requests', 'auth.example.test')).toBe(200)
    expect(await withHost(proxied.url + '/__knobs/requests', 'auth.example.test:8443')).toBe(403)
    const res = await fetch(`${proxied.url}/__knobs/requests`, { headers: { Origin: 'https://auth.example.test' } })
    expect(res.headers.get('access-control-allow-origin')).toBe('https://auth.example.test')
  })
})

describe('start-up', () => {
  const key = newKey('start')
  const keys = [key]

  it.each([
    [{ knobsOrigins: ['127.0.0.1:3000'] }, 'knobsOrigins "127.0.0.1:3000" is not an origin: it has no scheme. Write http://127.0.0.1:3000.'],
    [
      { knobsOrigins: ['http://127.0.0.1:3000/login'] },
      'knobsOrigins "http://127.0.0.1:3000/login" is not an origin: it has a path. Write http://127.0.0.1:3000.',
    ],
    [{ allowedHosts: ['http://vm.test'] }, 'allowedHosts: "http://vm.test" is not a host name, or a host name and port.'],
    // The keys' allowed origins go through the same check (common/origins.ts): one that no Origin header can equal would refuse every page.
    [
      { keys: [{ ...key, allowedOrigins: ['http://127.0.0.1:3000/login?next=1'] }] },
      `allowedOrigins of API key ${key.key}: "http://127.0.0.1:3000/login?next=1" is not an origin: it has a path and a query. Write http://127.0.0.1:3000.`,
    ],
    [
      { keys: [{ ...key, allowedOrigins: ['ftp://127.0.0.1:3000'] }] },
      `allowedOrigins of API key ${key.key}: "ftp://127.0.0.1:3000" is not an origin: its scheme must be http or https, as in http://127.0.0.1:3000.`,
    ],
    // Shorter than the service issues, which service-auth/server refuses: such a mock could never be used by a controller.
    [
      { keys: [{ key: key.key, secret: 'c2hvcnQ=' }] },
      `The secret of API key ${key.key}: The API secret decodes to 5 bytes; it must be at least 32, as the service issues it. Is it a placeholder or cut short? Make one with \`openssl rand -base64 32\``,
    ],
  ])('refuses %o with a message that names it', async (options, message) => {
    await expect(startService({ port: 0, keys, knobs: true, ...options })).rejects.toThrow(message)
  })

  it('takes an origin with a trailing slash, or in capitals, as the Origin header a page of it sends; so does setAllowedOrigins', async () => {
    const service = await startService({ port: 0, keys: [{ ...key, allowedOrigins: ['HTTP://127.0.0.1:3000/'] }], knobs: true })
    const create = (origin: string) =>
      fetch(`${service.url}/v1/entity/challenges`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: origin },
        body: JSON.stringify({ key: key.key }),
      })
    try {
      expect((await create('http://127.0.0.1:3000')).status).toBe(201)
      service.setAllowedOrigins(key.key, ['http://localhost:4000/'])
      expect((await create('http://localhost:4000')).status).toBe(201)
      expect((await create('http://127.0.0.1:3000')).status).toBe(403)
      expect(() => service.setAllowedOrigins(key.key, ['localhost:4000'])).toThrow(
        `allowedOrigins of API key ${key.key}: "localhost:4000" is not an origin: it has no scheme. Write http://localhost:4000.`,
      )
    } finally {
      await service.close()
    }
  })
})
