// Files served as they are: the built embed from dist/, and the pages' own scripts and styles.
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { ServerResponse } from 'node:http'
import { extname, resolve, sep } from 'node:path'
import { HttpProblem, sendBytes } from '@service-auth/http'

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
}

/** Paths of the embed's build output, at the site root as a CDN would serve them. */
export const DIST_FILE_PATTERN = /^\/(service-auth\.(js|mjs|css|[a-z]{2}(-[A-Z]{2})?\.js|languages\.js)|service-auth-[^/]+\.(js|css)|[^/]+\.map)$/

/**
 * `root` joined with a path taken from a URL, or undefined when the result would leave `root`
 * (`..`, an encoded slash, a NUL byte): the guard against path traversal.
 */
export function resolveInside(root: string, relativePath: string): string | undefined {
  if (relativePath.includes('\0')) return undefined
  const base = resolve(root)
  const path = resolve(base, '.' + sep + relativePath)
  return path.startsWith(base + sep) ? path : undefined
}

async function readOrNotFound(path: string | undefined): Promise<Buffer> {
  if (path) {
    try {
      return await readFile(path)
    } catch {
      // Missing, a directory, unreadable: to the browser all of these are "not here".
    }
  }
  throw new HttpProblem(404, 'There is no such file.')
}

/**
 * `no-store` because tests rebuild dist/ between runs and must never get yesterday's bundle
 * from the browser cache.
 */
export async function serveFile(res: ServerResponse, root: string, relativePath: string): Promise<void> {
  const path = resolveInside(root, relativePath)
  const body = await readOrNotFound(path)
  const contentType = CONTENT_TYPES[extname(path!).toLowerCase()] ?? 'application/octet-stream'
  sendBytes(res, 200, body, contentType, { 'X-Content-Type-Options': 'nosniff' })
}

/** The Subresource Integrity value of a file, computed from the bytes actually served. */
export async function subresourceIntegrity(root: string, relativePath: string): Promise<string> {
  const body = await readOrNotFound(resolveInside(root, relativePath)).catch(() => {
    throw new HttpProblem(404, `${relativePath} is not built yet; run npm run build.`)
  })
  return 'sha384-' + createHash('sha384').update(body).digest('base64')
}
