// @vitest-environment node
// The Python and PHP examples' login pages, being pages integrators copy, load the embed as the
// package's README does: the versioned script and stylesheet, each with its integrity hash and
// `crossorigin="anonymous"`. The hashes are the built files' (`npm run build` first); when the
// embed changes, `npm run readme:sri` renews them here as in the README.
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'

const read = (path: string) => readFile(new URL(`../../${path}`, import.meta.url))
const { version } = JSON.parse((await read('packages/service-auth/package.json')).toString('utf8'))

describe.each(['examples/python/app.py', 'examples/php/app.php'])('%s', (example) => {
  it.each([
    ['script', 'src', 'js'],
    ['link', 'href', 'css'],
  ])('pins the embed’s <%s> to the version built, with the built file’s integrity, loaded with CORS', async (element, attribute, ext) => {
    const page = (await read(example)).toString('utf8')
    const tags = page.match(new RegExp(`<${element}\\b[^>]*\\b${attribute}="[^"]*/service-auth[^"]*"[^>]*>`, 'g')) ?? []
    expect(tags).toHaveLength(1)
    const [, file, integrity, crossorigin] = /\/(service-auth[^"/]*)"\s+integrity="([^"]*)"\s+crossorigin="([^"]*)"/.exec(tags[0]!) ?? []
    expect(file).toBe(`service-auth-${version}.${ext}`)
    const built = await read(`packages/service-auth/dist/${file}`)
    expect(integrity).toBe(`sha384-${createHash('sha384').update(built).digest('base64')}`)
    expect(crossorigin).toBe('anonymous')
  })
})
