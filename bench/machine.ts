// What the figures were measured on. Absolute times mean little without it; the ratios the
// report leads with are taken within one run, so they travel better.
import { readFileSync } from 'node:fs'
import { cpus, loadavg, platform, release, totalmem } from 'node:os'

export interface Machine {
  os: string
  cpu: string
  cores: number
  memoryGiB: number
  /** 1-minute load average when the bench started: another job on the machine shows here. */
  loadAverage: number
  node: string
  chromium: string
  /** The open-file limit: the capacity phase needs a socket per held poll. */
  openFileLimit: string
  date: string
}

export function describeMachine(chromium: string): Machine {
  const cpu = cpus()
  return {
    os: `${platform()} ${release()}${distribution()}`,
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    loadAverage: Math.round(loadavg()[0]! * 100) / 100,
    node: process.version,
    chromium,
    openFileLimit: openFileLimit(),
    date: new Date().toISOString(),
  }
}

function distribution(): string {
  try {
    const name = /^PRETTY_NAME="?([^"\n]+)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1]
    return name ? ` (${name})` : ''
  } catch {
    return ''
  }
}

function openFileLimit(): string {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'))
    const [soft, hard] = line?.split(/\s{2,}/).slice(1, 3) ?? []
    return soft ? `${soft} (hard ${hard})` : 'unknown'
  } catch {
    return 'unknown'
  }
}
