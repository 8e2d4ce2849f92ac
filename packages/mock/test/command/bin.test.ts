// @vitest-environment node
// bin/service-auth-mock.mjs, the file npm links as `service-auth-mock`: it runs the built command
// (dist/cli.mjs) with the arguments given, and where nothing is built yet it says what to run,
// in one line and with exit 1, instead of Node's stack. Run here beside a dist/cli.mjs of the
// test's own, so that neither case needs the build.
import { execFile } from 'node:child_process'
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterEach, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const BIN = fileURLToPath(new URL('../../bin/service-auth-mock.mjs', import.meta.url))

/** A package folder holding the bin alone, as a checkout before its build; dist/cli.mjs when given. */
async function packageDir(cli?: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'service-auth-mock-bin-'))
  dirs.push(dir)
  await mkdir(join(dir, 'bin'))
  await copyFile(BIN, join(dir, 'bin/service-auth-mock.mjs'))
  if (cli !== undefined) {
    await mkdir(join(dir, 'dist'))
    await writeFile(join(dir, 'dist/cli.mjs'), cli)
  }
  return dir
}
const dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

describe('bin/service-auth-mock.mjs', () => {
  it('runs dist/cli.mjs with the arguments it was given, and ends as it ends', async () => {
    const dir = await packageDir('console.log(JSON.stringify(process.argv.slice(2)))\nprocess.exitCode = 3\n')
    const ran = await run(process.execPath, [join(dir, 'bin/service-auth-mock.mjs'), '--port', '0', '--in-memory']).catch((error) => error)
    expect(ran).toMatchObject({ code: 3, stdout: '["--port","0","--in-memory"]\n', stderr: '' })
  })

  it('before the build, says so in one line that names the file and `npm run build`, and exits 1', async () => {
    const dir = await packageDir()
    const failed = await run(process.execPath, [join(dir, 'bin/service-auth-mock.mjs'), '--help']).catch((error) => error)
    expect(failed).toMatchObject({ code: 1, stdout: '' })
    expect(failed.stderr).toBe(`service-auth-mock is not built yet (no ${join(dir, 'dist/cli.mjs')}): run npm run build at the repository's root.\n`)
  })
})
