// Measure 1b: what installing each package brings. Both workspaces are packed (`npm pack` builds
// them) and installed, each into a fresh project of its own, with npm as an integrator runs it:
// how many packages land in node_modules, their bytes on disk, the native files among them and the
// packages that run a script at install. The mock twice: with its optional lmdb, and without it
// (--omit=optional), as where native modules cannot be installed.
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export interface InstallRow {
  /** What was installed, as a person would type it. */
  install: string
  /** The tarball's own size, packed. */
  tarballBytes: number
  packages: number
  bytes: number
  nativeFiles: number
  installScripts: string[]
}

export interface InstallResult {
  rows: InstallRow[]
}

export async function measureInstallSize(root: string): Promise<InstallResult> {
  const work = await mkdtemp(join(tmpdir(), 'service-auth-install-'))
  try {
    const { stdout } = await run('npm', ['pack', '--workspace', 'service-auth', '--workspace', '@service-auth/mock', '--json', '--pack-destination', work], {
      cwd: root,
      maxBuffer: 16 << 20,
    })
    const packed = JSON.parse(stdout.slice(stdout.indexOf('['))) as { name: string; filename: string; size: number }[]
    const tarball = (name: string) => packed.find((entry) => entry.name === name)!
    const embed = tarball('service-auth')
    const mock = tarball('@service-auth/mock')
    const cases: [string, string[], number][] = [
      ['npm i service-auth', [embed.filename], embed.size],
      ['npm i @service-auth/mock', [embed.filename, mock.filename], mock.size],
      ['npm i @service-auth/mock --omit=optional', [embed.filename, mock.filename, '--omit=optional'], mock.size],
    ]
    const rows: InstallRow[] = []
    for (const [index, [install, args, tarballBytes]] of cases.entries()) {
      const dir = join(work, `project-${index}`)
      await mkdir(dir)
      await writeFile(join(dir, 'package.json'), JSON.stringify({ name: `project-${index}`, private: true }))
      await run('npm', ['install', ...args.map((arg) => (arg.endsWith('.tgz') ? join(work, arg) : arg)), '--no-audit', '--no-fund', '--prefer-offline'], {
        cwd: dir,
      })
      rows.push({ install, tarballBytes, ...(await survey(join(dir, 'node_modules'))) })
    }
    return { rows }
  } finally {
    await rm(work, { recursive: true, force: true })
  }
}

/** What a node_modules holds: packages (by their package.json with a name, nested ones too), bytes, native files, install scripts. */
async function survey(nodeModules: string): Promise<Omit<InstallRow, 'install' | 'tarballBytes'>> {
  let packages = 0
  let bytes = 0
  let nativeFiles = 0
  const installScripts: string[] = []
  for (const entry of await readdir(nodeModules, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    bytes += (await stat(path)).size
    if (entry.name.endsWith('.node')) nativeFiles += 1
    // A package's own manifest sits right under node_modules/<name> or node_modules/@scope/<name>.
    if (entry.name === 'package.json' && /node_modules\/(@[^/]+\/)?[^/@][^/]*$/.test(entry.parentPath)) {
      const { name, scripts = {} } = JSON.parse(await readFile(path, 'utf8')) as { name?: string; scripts?: Record<string, string> }
      if (!name) continue
      packages += 1
      if (['preinstall', 'install', 'postinstall'].some((hook) => hook in scripts)) installScripts.push(name)
    }
  }
  return { packages, bytes, nativeFiles, installScripts: installScripts.sort() }
}
