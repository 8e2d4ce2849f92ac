// Real file systems for the data-store tests: a small tmpfs that fills up, and a read-only bind
// mount. Mounting takes root (CI runs as root) on Linux; where it cannot be done, each helper
// says why, and the test skips with that reason rather than pretend.
import { execFileSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'

/** A mount: where, and how to undo it. */
export interface MountedDir {
  dir: string
  unmount(): void
}

/** The result of a mount, or why it could not be made. */
export type Mounted = MountedDir | { skip: string }

function run(args: string[]): string | undefined {
  try {
    execFileSync('mount', args, { stdio: ['ignore', 'ignore', 'pipe'] })
    return undefined
  } catch (error) {
    const stderr = String((error as { stderr?: Buffer }).stderr ?? '').trim()
    return stderr || (error as Error).message
  }
}

const mountedAt = (dir: string): MountedDir => ({
  dir,
  unmount: () => execFileSync('umount', ['-l', dir]),
})

/** A tmpfs of `size` (`2m`) at `dir`, created when missing. */
export function mountTmpfs(dir: string, size: string): Mounted {
  if (process.platform !== 'linux') return { skip: `a tmpfs is mounted on Linux only, and this is ${process.platform}` }
  mkdirSync(dir, { recursive: true })
  const failed = run(['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir])
  return failed === undefined ? mountedAt(dir) : { skip: `mount -t tmpfs needs root (CAP_SYS_ADMIN): ${failed}` }
}

/** `source` again at `dir`, read-only. */
export function bindReadOnly(source: string, dir: string): Mounted {
  if (process.platform !== 'linux') return { skip: `a bind mount is made on Linux only, and this is ${process.platform}` }
  mkdirSync(dir, { recursive: true })
  const skip = (failed: string) => ({ skip: `a read-only bind mount needs root (CAP_SYS_ADMIN): ${failed}` })
  const bound = run(['--bind', source, dir])
  if (bound !== undefined) return skip(bound)
  const mounted = mountedAt(dir)
  const readOnly = run(['-o', 'remount,bind,ro', dir])
  if (readOnly === undefined) return mounted
  mounted.unmount()
  return skip(readOnly)
}
