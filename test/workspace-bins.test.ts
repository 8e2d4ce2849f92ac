// @vitest-environment node
// Every workspace's command is there in a fresh clone once `npm ci` has run. npm links a
// workspace's bin at install time and skips, without a word, one whose file does not exist yet:
// a bin in dist/, which the build writes afterwards, is never linked (`npx service-auth-mock`
// then went to the registry for a package of that name). So each bin must be a committed file,
// runnable as a program; what it runs may be built later.
import { execFileSync } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
const { workspaces } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { workspaces: string[] }
const tracked = (path: string) => execFileSync('git', ['ls-files', '--', path], { cwd: root, encoding: 'utf8' }).trim()

/** Each workspace's bins, as [workspace, command, path from the repository's root]. */
const bins = (
  await Promise.all(
    workspaces.map(async (workspace) => {
      const { bin = {} } = JSON.parse(await readFile(join(root, workspace, 'package.json'), 'utf8')) as { bin?: Record<string, string> }
      return Object.entries(bin).map(([command, path]) => [workspace, command, join(workspace, path)] as const)
    }),
  )
).flat()

describe("the workspaces' commands", () => {
  it('finds the bins it checks', () => {
    expect(bins.map(([, command]) => command)).toContain('service-auth-mock')
  })

  it.each(bins)('%s: %s is a file git holds (not a build output), and starts with the #! line of node', async (_workspace, _command, path) => {
    expect(tracked(path), `${path} is in every clone`).toBe(path)
    expect((await readFile(join(root, path), 'utf8')).split('\n')[0]).toBe('#!/usr/bin/env node')
  })
})
