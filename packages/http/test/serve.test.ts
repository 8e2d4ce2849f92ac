// @vitest-environment node
// What a client reads when a handler has a bug: a 500 in problem JSON that names who failed and
// where to look, the mock service unless whoever serves with these helpers names itself.
import { createServer, type Server } from 'node:http'
import { afterEach, expect, it, vi } from 'vitest'
import { closeServer, listen } from '../src/listen.js'
import { serve, type ServeOptions } from '../src/serve.js'

let server: Server | undefined
afterEach(async () => {
  if (server) await closeServer(server)
  server = undefined
})

async function failingServer(options?: ServeOptions): Promise<string> {
  server = createServer(
    serve(async () => {
      throw new Error('a bug')
    }, options),
  )
  return listen(server)
}

it('answers a bug with a 500 that says the mock service failed, and logs the error', async () => {
  const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
  const res = await fetch((await failingServer()) + '/v1/anything?x=1')
  expect(res.status).toBe(500)
  expect(await res.json()).toMatchObject({ status: 500, detail: 'The mock service failed; see its console.', instance: '/v1/anything' })
  expect(logged).toHaveBeenCalledWith(new Error('a bug'))
})

it('names the server it was told', async () => {
  vi.spyOn(console, 'error').mockImplementation(() => {})
  const res = await fetch((await failingServer({ serverName: 'shop app' })) + '/')
  expect((await res.json()).detail).toBe('The shop app failed; see its console.')
})
