// Who owns a data directory, known for certain. The owner listens on a Unix domain socket in the
// directory, owner.sock; a start that can connect to it knows that a live process holds the
// directory, and one that cannot (nobody listens: ECONNREFUSED; or no socket) takes it over.
//
// Why a socket and not a recorded pid asked with kill(pid, 0): the kernel closes a process's
// sockets the moment it dies, however it died, so the claim dies with its process. A pid answers
// for a zombie (killed, not yet reaped by its parent) and, after a container restarts, for
// whichever process was given that number next.
//
// Why a file in the directory and not a Linux abstract socket (`\0service-auth-<hash>`): an
// abstract name belongs to a network namespace, so two containers sharing the directory would each
// get it, and it would be keyed by a path that differs between mounts; it does not exist on macOS.
// The socket file is the same inode for every process that sees the directory, by whatever path.
//
// Taking over a stale claim is the one race: two starts could each find the socket dead and each
// put its own in its place. So each start reads the claim's generation before it tries the socket,
// binds its own socket under a name of its own, and renames it over owner.sock only if the
// generation is still the one it read, under a lock every opener shares (the ledger: LMDB's write
// transaction, see lmdb-backend.ts). A start that loses looks again, and finds the winner alive.
//
// Windows has no such sockets in its file system; its named pipes serve, more simply (#takePipe).
import { createHash, randomBytes } from 'node:crypto'
import { chmodSync, lstatSync, readdirSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, unlinkSync, type Stats } from 'node:fs'
import { connect, createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type DirectoryNaming, StoreError } from './errors.js'

/** The owner's socket, in the data directory. */
export const OWNER_SOCKET = 'owner.sock'

/**
 * Where a start binds its socket before it renames it over owner.sock: named by its pid and a
 * count, so that no two attempts share one, in one process or two.
 */
const PENDING_SOCKET = /^owner-\d+-\d+\.sock$/
let attempts = 0
const pendingName = () => `owner-${process.pid}-${++attempts}.sock`

/** The files a claim leaves in a data directory: its socket, and those of starts killed while taking it. */
export const isClaimFile = (name: string): boolean => name === OWNER_SOCKET || PENDING_SOCKET.test(name)

// sun_path holds 108 bytes on Linux and 104 on macOS, and Node cuts a longer path short without
// a word (binding somewhere else than asked), so a longer one goes through a short symlink.
const MAX_SOCKET_PATH = 103

// A live owner answers a connection with its pid at once; one whose event loop is stuck (or that
// is stopped with SIGSTOP) still holds the directory, and the refusal is given without the pid.
const PID_WAIT_MS = 2000

// Each lost race means another start took the directory, and the next look finds it alive; more
// than a few in a row means something keeps taking it and dropping it, and saying so beats looping.
const ATTEMPTS = 5

/** Where the claim's generation is kept, and changed only under a lock shared by every process that opens the directory. */
export interface ClaimLedger {
  /** The generation of the claim last taken; undefined when none is recorded. */
  generation(): string | undefined
  /** If the generation is still `expected`: runs `install`, records `next`, and returns true; atomically across processes. */
  swap(expected: string | undefined, next: string, install: () => void): boolean
}

/** What a connection to the owner's socket found. */
type Probe = { alive: false } | { alive: true; pid: number | undefined }

export class OwnerClaim {
  /** owner.sock and what it was when this claim installed it; none for a named pipe. */
  readonly #socket: { path: string; stats: Stats } | undefined
  readonly #server: Server
  #releasing: Promise<void> | undefined

  private constructor(server: Server, path?: string) {
    this.#server = server
    this.#socket = path === undefined ? undefined : { path, stats: statSync(path) }
    // The claim lasts as long as the process, and is no reason for it to last.
    server.unref()
  }

  /**
   * Claims `dir` for this process, or throws a StoreError (code `in-use`) naming the live owner.
   * The claim does not keep the process alive; release() gives it up. `naming`: how the refusal
   * says to name another directory (the command's --data, or openDataStore's argument).
   */
  static async take(dir: string, ledger: ClaimLedger, naming: DirectoryNaming): Promise<OwnerClaim> {
    if (process.platform === 'win32') return OwnerClaim.#takePipe(dir, naming)
    const path = join(dir, OWNER_SOCKET)
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      // Read before the socket is tried: a takeover after this changes the generation, and the swap below fails.
      const seen = ledger.generation()
      checkSocketFile(path)
      const owner = await viaShortPath(dir, OWNER_SOCKET, naming, (short) => probe(short, path))
      if (owner.alive) throw inUse(dir, owner.pid, naming)
      const name = pendingName()
      const pending = join(dir, name)
      // Left by a killed process that had this pid: nobody listens on it.
      rmSync(pending, { force: true })
      const server = await viaShortPath(dir, name, naming, (short) => listen(short, pending))
      let installed: boolean
      try {
        // Like the directory's other files, its owner's alone: whoever can connect learns the owner's pid.
        chmodSync(pending, 0o600)
        installed = ledger.swap(seen, randomBytes(8).toString('hex'), () => install(pending, path))
      } catch (error) {
        await closeServer(server)
        rmSync(pending, { force: true })
        throw error
      }
      if (installed) {
        removePendingSockets(dir)
        return new OwnerClaim(server, path)
      }
      await closeServer(server)
      rmSync(pending, { force: true })
    }
    throw tooManyTakeovers(dir, naming)
  }

  /** Gives the directory up: no longer listened on, owner.sock removed. Once, however often it is called. */
  release(): Promise<void> {
    return (this.#releasing ??= this.#release())
  }

  async #release(): Promise<void> {
    // Removed while still listening, so nobody can take the directory between the two steps and
    // lose its socket to this unlink; and only if it is still this claim's socket.
    if (this.#socket) {
      try {
        const now = statSync(this.#socket.path)
        if (now.ino === this.#socket.stats.ino && now.dev === this.#socket.stats.dev) unlinkSync(this.#socket.path)
      } catch {
        // Gone already: nothing to remove.
      }
    }
    await closeServer(this.#server)
  }

  /**
   * Windows: a named pipe, named by the hash of the directory's real path. Creating the first
   * instance of a pipe name is atomic (another gets EADDRINUSE) and the name goes with its
   * process, so there is no stale claim to take over and no race to settle.
   */
  static async #takePipe(dir: string, naming: DirectoryNaming): Promise<OwnerClaim> {
    const real = realpathSync.native(dir).toLowerCase()
    const pipe = `\\\\.\\pipe\\service-auth-${createHash('sha256').update(real).digest('hex').slice(0, 32)}`
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      try {
        return new OwnerClaim(await listen(pipe, dir))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error
      }
      const owner = await probe(pipe, dir)
      if (owner.alive) throw inUse(dir, owner.pid, naming)
      // Its owner was on its way out: the name is free now.
    }
    throw tooManyTakeovers(dir, naming)
  }
}

function inUse(dir: string, pid: number | undefined, naming: DirectoryNaming): StoreError {
  if (pid === process.pid) return new StoreError(`${dir} is open already in this process: close that store first.`, { code: 'in-use', ownerPid: pid })
  const who = pid === undefined ? 'another running service' : `another running service (process ${pid})`
  return new StoreError(`${dir} is in use by ${who}. Stop it, or ${naming.name('another directory')}.`, { code: 'in-use', ownerPid: pid })
}

function tooManyTakeovers(dir: string, naming: DirectoryNaming): StoreError {
  return new StoreError(`${dir} is being taken and given up by other starts, again and again; stop them, or ${naming.name('another directory')}.`, {
    code: 'in-use',
  })
}

/**
 * Refuses an owner.sock that is not a socket: a directory, a file, a link. Nothing of the
 * service's is ever anything but a socket there, so it is not the service's to remove.
 */
function checkSocketFile(path: string): void {
  const stats = lstatSync(path, { throwIfNoEntry: false })
  if (!stats || stats.isSocket()) return
  const kind = stats.isDirectory() ? 'a directory' : stats.isFile() ? 'a regular file' : stats.isSymbolicLink() ? 'a symbolic link' : 'not a socket'
  throw new StoreError(`${path} is ${kind}, where a running service keeps its socket: nothing of the service's is in it. Remove it, and start again.`, {
    code: 'owner-socket',
  })
}

/** Puts this start's socket in the place of owner.sock (none, or one nobody listens on). */
function install(pending: string, path: string): void {
  try {
    renameSync(pending, path)
  } catch (error) {
    throw new StoreError(`${path} cannot be replaced by this start's socket (${(error as Error).message}). Remove it, and start again.`, {
      code: 'owner-socket',
      cause: error,
    })
  }
}

/**
 * Connects to the owner's socket at `path` (`shown` in messages): refused or missing means
 * nobody holds the directory; connected, its owner says its pid.
 */
function probe(path: string, shown: string): Promise<Probe> {
  return new Promise<Probe>((resolve, reject) => {
    const socket = connect(path)
    let connected = false
    let said = ''
    let timer: NodeJS.Timeout | undefined
    const alive = () => {
      clearTimeout(timer)
      socket.destroy()
      const pid = Number(said.trim())
      resolve({ alive: true, pid: said.trim() !== '' && Number.isInteger(pid) && pid > 0 ? pid : undefined })
    }
    socket.setEncoding('utf8')
    socket.on('connect', () => {
      connected = true
      timer = setTimeout(alive, PID_WAIT_MS)
    })
    socket.on('data', (chunk: string) => (said += chunk))
    socket.on('end', alive)
    socket.on('close', () => connected && alive())
    socket.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      if (connected) alive()
      // ECONNREFUSED: a socket (or any other file) nobody listens on, left by an owner that died.
      else if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve({ alive: false })
      else reject(cannotCheck(shown, error))
    })
  })
}

/** Why owner.sock could not be asked whether a service runs, and what to do. */
function cannotCheck(shown: string, error: NodeJS.ErrnoException): StoreError {
  if (error.code === 'EACCES' || error.code === 'EPERM') {
    const stats = statSync(shown, { throwIfNoEntry: false })
    const whose = stats ? ` (it belongs to uid ${stats.uid}, mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')})` : ''
    return new StoreError(
      `${shown} cannot be checked for a running service: this user may not connect to it${whose}. Start the service as its owner, or, if none runs, remove it.`,
      { code: 'owner-socket', cause: error },
    )
  }
  return new StoreError(`${shown} cannot be checked for a running service: ${error.message}. If none runs, remove it, and start again.`, {
    code: 'owner-socket',
    cause: error,
  })
}

/** A server on `path` (`shown` in messages) that answers every connection with this process's pid. */
function listen(path: string, shown: string): Promise<Server> {
  const server = createServer((socket) => {
    // A start that gave up waiting may be gone already; nothing to tell it then.
    socket.on('error', () => {})
    socket.end(`${process.pid}\n`)
  })
  return new Promise<Server>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      // The code stays: EADDRINUSE is how a named pipe says it has an owner.
      reject(Object.assign(new Error(`${shown} cannot be listened on: ${error.message}`), { code: error.code }))
    })
    server.listen(path, () => resolve(server))
  })
}

/**
 * Runs `use` with a path to `dir`/`name` that fits in sun_path. A longer one goes through a
 * symlink to `dir` under a random name in the temporary directory, made for this one bind or
 * connect and removed after it: the socket itself is still the file in `dir`, found by everyone.
 * (Not a chdir, which a library must not do to its process.)
 */
async function viaShortPath<T>(dir: string, name: string, naming: DirectoryNaming, use: (path: string) => Promise<T>): Promise<T> {
  const direct = join(dir, name)
  if (Buffer.byteLength(direct) <= MAX_SOCKET_PATH) return use(direct)
  const link = join(tmpdir(), `service-auth-${randomBytes(6).toString('hex')}`)
  const short = join(link, name)
  if (Buffer.byteLength(short) > MAX_SOCKET_PATH) {
    throw new Error(
      `${direct} is too long for a Unix socket (at most ${MAX_SOCKET_PATH} bytes), and so is the way round it through ${tmpdir()}: ${naming.name('a shorter directory')}, or set TMPDIR to a shorter directory.`,
    )
  }
  symlinkSync(dir, link)
  try {
    return await use(short)
  } finally {
    unlinkSync(link)
  }
}

/** Sockets of starts that were killed between binding theirs and installing it; any start still racing has lost already. */
function removePendingSockets(dir: string): void {
  for (const name of readdirSync(dir)) {
    try {
      if (PENDING_SOCKET.test(name)) rmSync(join(dir, name), { force: true })
    } catch {
      // Not a socket after all (a directory of that name, say): not ours to remove, and in nobody's way.
    }
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()))
}
