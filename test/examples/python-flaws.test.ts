// @vitest-environment node
// The check judges a controller in another language, written from the spec by hand, as it judges
// the gallery's (packages/mock/test/check-controller): the Python example, given one flaw each by
// changing a line or two of it, fails exactly the cases that flaw lets through. (Unchanged, it
// passes every case: check-controller.test.ts.)
import type { ChildProcess } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkController, connectMockService, startMockService, type MockService } from '@service-auth/mock'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, stopProcess } from '../../e2e/processes.js'

/** Each flaw as the lines it changes in examples/python/app.py, and the cases it must fail. */
const FLAWS: Record<string, { change: [from: string, to: string][]; fails: string[] }> = {
  'skips the signature check': {
    change: [["if json.loads(unb64url(header)).get('alg') != 'HS256' or not hmac.compare_digest(", 'if False and (']],
    fails: ['other-secret', 'alg-none', 'hs-rs-confusion'],
  },
  'accepts alg: none': {
    change: [["if json.loads(unb64url(header)).get('alg') != 'HS256' or not", "if json.loads(unb64url(header)).get('alg') != 'none' and not"]],
    fails: ['alg-none'],
  },
  'ignores exp': { change: [[" or claims['exp'] < time.time() - 5", '']], fails: ['expired'] },
  'never confirms': {
    change: [["status = authenticate(claims['sub'], claims['jti'], claims['otp'])", 'status = 200']],
    fails: ['valid-sign-in', 'replayed', 'wrong-sub', 'service-refuses', 'service-redirects', 'service-unavailable', 'service-timeout'],
  },
  'confirms but ignores the answer': {
    change: [['if status != 200:', 'if False:']],
    fails: ['replayed', 'wrong-sub', 'service-refuses', 'service-redirects', 'service-unavailable'],
  },
  // As the example was until a review found it: urllib's own opener follows a 302.
  "follows the service's redirects": {
    change: [['CONFIRM = urllib.request.build_opener(NoRedirect)', 'CONFIRM = urllib.request.build_opener()']],
    fails: ['service-redirects'],
  },
  'fails open when the service is down': {
    change: [
      ["return self.refuse(502, 'The sign-in service cannot be reached.')", 'status = 200'],
      ['if status != 200:', 'if status != 200 and status < 500:'],
    ],
    fails: ['service-unavailable', 'service-timeout'],
  },
  'skips the user store': {
    change: [["user = USERS.get(claims['sub'])", "user = USERS.get(claims['sub']) or {'name': claims['sub']}"]],
    fails: ['unknown-user'],
  },
}

let service: MockService
let work: string
let source: string
const apps: ChildProcess[] = []
beforeAll(async () => {
  service = await startMockService({ testKeys: false })
  work = await mkdtemp(join(tmpdir(), 'python-flaws-'))
  source = await readFile(new URL('../../examples/python/app.py', import.meta.url), 'utf8')
})
afterAll(async () => {
  await Promise.all(apps.map(stopProcess))
  await service?.close()
  await rm(work, { recursive: true, force: true })
})

describe.concurrent('the Python example with one flaw', () => {
  it.each(Object.entries(FLAWS))('%s: fails exactly the cases it lets through', async (flaw, { change, fails }) => {
    let flawed = source
    for (const [from, to] of change) {
      // Each change applies once, so that a reworded example fails here rather than go unflawed.
      expect(flawed.split(from), from).toHaveLength(2)
      flawed = flawed.replace(from, to)
    }
    const file = join(work, `${flaw.replaceAll(/\W+/g, '-')}.py`)
    await writeFile(file, flawed)
    const { url, key, secret } = await connectMockService({ url: service.url, isolate: true })
    const { child, origin } = await startServer(['python3', file], { env: { SERVICE_URL: url, SERVICE_KEY: key, SERVICE_SECRET: secret, PORT: '0' } })
    apps.push(child)
    const { checks } = await checkController({
      controller: `${origin}/auth/controller`,
      identity: 'ada@example.com',
      signedIn: `${origin}/welcome`,
      service: url,
      key,
      secret,
    })
    expect(checks.filter(({ outcome }) => outcome === 'fail').map(({ id }) => id)).toEqual(fails)
    expect(checks.filter(({ outcome }) => outcome === 'warn' || outcome === 'skip')).toEqual([])
  })
})
