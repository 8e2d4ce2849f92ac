// @vitest-environment node
// The identity endpoints over real HTTP: create, retrieve, update, list with paging, rename and
// delete, with every status code, the Identity shape, and apps kept apart.
import { describe, expect, it } from 'vitest'
import { ErrorCode } from '@service-auth/http'
import { newKey, problemOf, useService } from './helpers.js'

const shopKey = newKey('shop')
const supportKey = newKey('support')
const otherApp = newKey('other')
const service = useService({}, [
  { key: shopKey.key, secret: shopKey.secret, app: 'shop' },
  { key: supportKey.key, secret: supportKey.secret, app: 'shop', permissions: ['identities:read'] },
  { key: otherApp.key, secret: otherApp.secret },
])

const IDENTITIES = '/v1/entity/identities'
const path = (identifier: string) => `${IDENTITIES}/${encodeURIComponent(identifier)}`
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/

const create = async (body: Record<string, unknown>) => {
  const res = await service.api('POST', IDENTITIES, { body })
  expect(res.status).toBe(201)
  return res.json()
}

describe('create', () => {
  it('201 with the Identity: every spec field, ROLE_USER and unlocked by default, label from the identifier', async () => {
    const identity = await create({ identifier: 'ada@example.com' })
    expect(identity).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      createdAt: expect.stringMatching(TIMESTAMP),
      locked: false,
      identifier: 'ada@example.com',
      nickname: null,
      label: 'ada@example.com',
      role: 'ROLE_USER',
      tokens: [],
      sessions: [],
    })
  })

  it('takes nickname (which becomes the label), role and locked', async () => {
    const identity = await create({ identifier: 'u-8f3a', nickname: 'Ada', role: 'ROLE_ADMIN', locked: true })
    expect(identity).toMatchObject({ identifier: 'u-8f3a', nickname: 'Ada', label: 'Ada', role: 'ROLE_ADMIN', locked: true })
  })

  it('400 when the identifier is taken, with the constant not-unique code; the first stays as it was', async () => {
    await create({ identifier: 'ada@example.com', nickname: 'First' })
    const res = await service.api('POST', IDENTITIES, { body: { identifier: 'ada@example.com', nickname: 'Second' } })
    expect(res.status).toBe(400)
    expect((await problemOf(res)).errors).toEqual({ identifier: [{ code: ErrorCode.notUnique, message: expect.any(String) }] })
    expect((await (await service.api('GET', path('ada@example.com'))).json()).nickname).toBe('First')
  })

  it('400 names every failing field at once, each with its constant code', async () => {
    const res = await service.api('POST', IDENTITIES, { body: { nickname: 7, role: 'admin', locked: 'yes' } })
    expect(res.status).toBe(400)
    const { errors } = await problemOf(res)
    expect(Object.fromEntries(Object.entries(errors!).map(([field, list]) => [field, list.map((e) => e.code)]))).toEqual({
      identifier: [ErrorCode.isBlank],
      nickname: [ErrorCode.invalidType],
      role: [ErrorCode.patternMismatch],
      locked: [ErrorCode.invalidType],
    })
  })

  it('400 for control characters and for an identifier over 255 characters', async () => {
    for (const identifier of ['ada\n@example.com', 'a'.repeat(256)]) {
      const res = await service.api('POST', IDENTITIES, { body: { identifier } })
      expect(res.status).toBe(400)
    }
    expect(await (await service.api('GET', IDENTITIES)).json()).toEqual([])
  })
})

describe('retrieve', () => {
  it('200 with the identity, found by its URL-encoded identifier', async () => {
    await create({ identifier: 'a/b c@example.com' })
    const res = await service.api('GET', path('a/b c@example.com'))
    expect(res.status).toBe(200)
    expect((await res.json()).identifier).toBe('a/b c@example.com')
  })

  it('404 for an unknown identifier, and for one of another app', async () => {
    await service.api('POST', IDENTITIES, { body: { identifier: 'eve' }, key: otherApp })
    for (const identifier of ['nobody', 'eve']) {
      const res = await service.api('GET', path(identifier))
      expect(res.status).toBe(404)
      expect(await problemOf(res)).toMatchObject({ title: 'Not Found', instance: path(identifier) })
    }
  })

  it('keys of the same app see the same identities; other apps do not', async () => {
    expect((await service.api('POST', IDENTITIES, { body: { identifier: 'ada' }, key: shopKey })).status).toBe(201)
    expect((await service.api('GET', path('ada'), { key: supportKey })).status).toBe(200)
    expect((await service.api('GET', path('ada'))).status).toBe(404)
  })

  it('an identity called "enroll" can be read and deleted', async () => {
    await create({ identifier: 'enroll' })
    expect((await service.api('GET', path('enroll'))).status).toBe(200)
    expect((await service.api('DELETE', path('enroll'))).status).toBe(204)
  })
})

describe('update', () => {
  it('200 with the changed identity; absent fields stay, null clears the nickname', async () => {
    await create({ identifier: 'ada', nickname: 'Ada', role: 'ROLE_ADMIN' })
    const locked = await service.api('POST', path('ada'), { body: { locked: true } })
    expect(locked.status).toBe(200)
    expect(await locked.json()).toMatchObject({ nickname: 'Ada', role: 'ROLE_ADMIN', locked: true })
    const cleared = await (await service.api('POST', path('ada'), { body: { nickname: null, role: 'ROLE_USER', locked: false } })).json()
    expect(cleared).toMatchObject({ nickname: null, label: 'ada', role: 'ROLE_USER', locked: false })
  })

  it('404 for an unknown identity', async () => {
    expect((await service.api('POST', path('nobody'), { body: { locked: true } })).status).toBe(404)
  })

  it('400 for bad fields and for a new identifier (that is rename), changing nothing', async () => {
    await create({ identifier: 'ada', nickname: 'Ada' })
    for (const body of [{ nickname: 'Grace', locked: 'no' }, { nickname: 'Grace', identifier: 'grace' }, { role: 'ROLE_lower' }]) {
      const res = await service.api('POST', path('ada'), { body })
      expect(res.status).toBe(400)
    }
    expect(await (await service.api('GET', path('ada'))).json()).toMatchObject({ nickname: 'Ada', locked: false, role: 'ROLE_USER' })
  })

  it('415 for a body that is not JSON, 400 for malformed JSON', async () => {
    await create({ identifier: 'ada' })
    const form = await service.api('POST', path('ada'), { rawBody: 'locked=true', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })
    expect(form.status).toBe(415)
    const broken = await service.api('POST', path('ada'), { rawBody: '{"locked": tru', headers: { 'Content-Type': 'application/json' } })
    expect(broken.status).toBe(400)
    expect((await problemOf(broken)).errors).toEqual({ body: [{ code: ErrorCode.malformedBody, message: 'The body is not valid JSON.' }] })
  })
})

describe('rename', () => {
  it.each(['PATCH', 'POST'])('%s .../rename {identifier}: 200, the identity keeps its id, the old identifier is gone', async (method) => {
    const { id } = await create({ identifier: 'ada@old.example' })
    const res = await service.api(method, `${path('ada@old.example')}/rename`, { body: { identifier: 'ada@new.example' } })
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ id, identifier: 'ada@new.example', label: 'ada@new.example' })
    expect((await service.api('GET', path('ada@old.example'))).status).toBe(404)
    expect((await (await service.api('GET', path('ada@new.example'))).json()).id).toBe(id)
  })

  it('other methods are 405 with the allowed ones', async () => {
    await create({ identifier: 'ada' })
    const res = await service.api('PUT', `${path('ada')}/rename`, { body: { identifier: 'grace' } })
    expect(res.status).toBe(405)
    expect(res.headers.get('allow')).toBe('PATCH, POST')
  })

  it('404 for an unknown identity; 400 for a taken or blank identifier; renaming to itself is fine', async () => {
    await create({ identifier: 'ada' })
    await create({ identifier: 'grace' })
    expect((await service.api('POST', `${path('nobody')}/rename`, { body: { identifier: 'x' } })).status).toBe(404)
    const taken = await service.api('POST', `${path('ada')}/rename`, { body: { identifier: 'grace' } })
    expect((await problemOf(taken)).errors?.identifier?.[0]?.code).toBe(ErrorCode.notUnique)
    expect((await service.api('POST', `${path('ada')}/rename`, { body: { identifier: '' } })).status).toBe(400)
    expect((await service.api('POST', `${path('ada')}/rename`, { body: { identifier: 'ada' } })).status).toBe(200)
  })
})

describe('list', () => {
  const identifiers = (list: { identifier: string }[]) => list.map((identity) => identity.identifier)

  it('a bare array of Identity, paged in creation order, the totals in headers; a rename does not move an identity', async () => {
    for (const name of ['a', 'b', 'c', 'd', 'e']) await create({ identifier: name })
    await service.api('PATCH', `${path('b')}/rename`, { body: { identifier: 'z' } })
    const first = await service.api('GET', `${IDENTITIES}?limit=2`)
    expect(identifiers(await first.json())).toEqual(['a', 'z'])
    expect(first.headers.get('x-total-count')).toBe('5')
    const links = `<${service.url}${IDENTITIES}?page=1&limit=2>; rel="first", <${service.url}${IDENTITIES}?page=2&limit=2>; rel="next", <${service.url}${IDENTITIES}?page=3&limit=2>; rel="last"`
    expect(first.headers.get('link')).toBe(links)
    const last = await service.api('GET', `${IDENTITIES}?page=3&limit=2`)
    expect(identifiers(await last.json())).toEqual(['e'])
    expect(last.headers.get('link')).toContain(`<${service.url}${IDENTITIES}?page=2&limit=2>; rel="prev"`)
    expect(last.headers.get('link')).not.toContain('rel="next"')
    expect(await (await service.api('GET', `${IDENTITIES}?page=9`)).json()).toEqual([])
  })

  it("without a query, every identity of the key's app up to 1,000, as the official clients read it in one GET", async () => {
    for (let n = 0; n < 25; n++) await create({ identifier: `user-${n}` })
    await service.api('POST', IDENTITIES, { body: { identifier: 'eve' }, key: otherApp })
    const all = await service.api('GET', IDENTITIES)
    expect(identifiers(await all.json())).toHaveLength(25)
    expect(all.headers.get('x-total-count')).toBe('25')
    expect(all.headers.get('link')).toBe(
      `<${service.url}${IDENTITIES}?page=1&limit=1000>; rel="first", <${service.url}${IDENTITIES}?page=1&limit=1000>; rel="last"`,
    )
    expect((await service.api('GET', `${IDENTITIES}?limit=1000`)).status).toBe(200)
  })

  it('400 for a page or limit that is not a positive integer in range', async () => {
    for (const query of ['page=0', 'page=x', 'limit=1001', 'limit=0', 'limit=-1', 'limit=1.5']) {
      const res = await service.api('GET', `${IDENTITIES}?${query}`)
      expect(res.status, query).toBe(400)
      expect(Object.keys((await problemOf(res)).errors!)).toHaveLength(1)
    }
  })
})

describe('delete', () => {
  it('204 and the identity is gone; a second delete is 404', async () => {
    await create({ identifier: 'ada' })
    const res = await service.api('DELETE', path('ada'))
    expect(res.status).toBe(204)
    expect(await res.text()).toBe('')
    expect((await service.api('GET', path('ada'))).status).toBe(404)
    expect((await service.api('DELETE', path('ada'))).status).toBe(404)
  })
})

describe('the server-side API is not for browsers', () => {
  it('answers no CORS headers, and a preflight is 405', async () => {
    const res = await service.api('GET', IDENTITIES, { headers: { Origin: 'https://shop.example' } })
    expect(res.status).toBe(200)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    const preflight = await fetch(service.url + IDENTITIES, {
      method: 'OPTIONS',
      headers: { Origin: 'https://shop.example', 'Access-Control-Request-Method': 'GET' },
    })
    expect(preflight.status).toBe(405)
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull()
  })
})
