// The Playwright example of @service-auth/mock's README ("Test kit"), word for word below this
// comment: test/readme.test.ts holds the two together, and the package test runs the README's
// block itself from the installed tarball.
import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from '@playwright/test'
import { startMockService, type MockServiceControls } from '@service-auth/mock'
import { createClient, handleControllerRequest } from 'service-auth/server'

test('Ada signs in with her phone', async ({ page }) => {
  const service = await startMockService()
  await service.enrolPhone('ada@example.com')
  const app = await startApp(service, new Map([['ada@example.com', { name: 'Ada' }]]))
  await page.goto(app.url + '/login')
  await service.signShownCode(page, 'ada@example.com')
  await expect(page.getByRole('heading')).toHaveText('Signed in as Ada')
  app.close()
  await service.close()
})

// Stands in for your app, told the service's URL, key and secret: a login page with the
// widget, the controller it hands the signed token to, and a page for whoever signed in.
async function startApp({ url, key, secret }: MockServiceControls, users: Map<string, { name: string }>) {
  const client = createClient({ baseUrl: url, key, secret })
  const sessions = new Map<string, { name: string }>()
  const embed = (file: string) => readFile(new URL(import.meta.resolve(`service-auth/${file}`)))
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://app').pathname
    if (path === '/login') {
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<!doctype html><html lang="en"><title>Sign in</title>
        <link rel="stylesheet" href="/service-auth.css">
        <div data-service-auth data-service-key="${key}" data-service-auth-url="/auth/controller" data-service-api="${url}"></div>
        <script src="/service-auth.js"></script>`)
    } else if (path === '/service-auth.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(await embed('service-auth.js'))
    } else if (path === '/service-auth.css') {
      res.writeHead(200, { 'Content-Type': 'text/css' }).end(await embed('style.css'))
    } else if (path === '/auth/controller') {
      const answer = await handleControllerRequest(req, {
        client,
        secret,
        findUser: (identifier) => users.get(identifier),
        startSession(user) {
          const id = randomUUID()
          sessions.set(id, user)
          return { location: '/welcome', headers: { 'Set-Cookie': `session=${id}; Path=/; HttpOnly; SameSite=Lax` } }
        },
      })
      res.writeHead(answer.status, answer.headers).end(answer.body)
    } else if (path === '/welcome') {
      const user = sessions.get(/(?:^|; )session=([\w-]+)/.exec(req.headers.cookie ?? '')?.[1] ?? '')
      res.writeHead(user ? 200 : 401, { 'Content-Type': 'text/html' }).end(`<h1>${user ? `Signed in as ${user.name}` : 'Not signed in'}</h1>`)
    } else {
      res.writeHead(404).end()
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }
}
