// @vitest-environment node
// What the package's README says of the command and of the check of a controller, held to the
// code that defines them: every option, every variable, every case. (The repository's
// test/readme.test.ts holds the rest of the README to the published entries.)
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { COMMAND_OPTIONS, DEFAULT_DATA_DIR } from '../src/command/options.js'
import { commandHelp, optionsTable } from '../src/command/usage.js'
import { CASES } from '../src/testing/check-controller/check-controller.js'
import { CHECK_OPTIONS } from '../src/testing/check-controller/command.js'
import { formatReport } from '../src/testing/check-controller/report.js'

const readme = await readFile(new URL('../README.md', import.meta.url), 'utf8')

/** The text under a `## heading`, up to the next `## ` (its `###` subsections included). */
function section(heading: string): string {
  const start = readme.search(new RegExp(`^## ${heading}$`, 'm'))
  expect(start, `## ${heading}`).toBeGreaterThanOrEqual(0)
  const end = readme.indexOf('\n## ', start + 3)
  return readme.slice(start, end < 0 ? undefined : end)
}

describe("@service-auth/mock's README", () => {
  it("has the options table the command's is: every option, its variable, its config file field, its default and its doc, in order", () => {
    const [, table] = /<!-- options: [^\n]*-->\n((?:\|[^\n]*\n)*)/.exec(section('Usage')) ?? []
    expect(table?.trimEnd().split('\n')).toEqual(optionsTable())
  })

  it('names no option or variable the command does not have, and --help names every variable the README does', () => {
    const usage = section('Usage')
    const flags = Object.values(COMMAND_OPTIONS).flatMap((option) => ('flag' in option ? [option.flag] : []))
    for (const [option] of usage.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)) expect(flags, option).toContain(option!.slice(2))
    for (const [variable] of usage.matchAll(/\bSERVICE_[A-Z_]+\b/g)) {
      // The three lines for the controller are what the command prints, not what it reads.
      if (['SERVICE_URL', 'SERVICE_KEY', 'SERVICE_SECRET'].includes(variable!)) continue
      expect(commandHelp(), variable).toContain(variable)
    }
  })

  it('lists the options of check-controller, and every case of the check, as the code has them', () => {
    const check = section('Check your controller')
    const options = [...check.matchAll(/^\| `--([a-z-]+)[ `]/gm)].map((match) => match[1])
    expect(options).toEqual(Object.keys(CHECK_OPTIONS))
    expect([...check.matchAll(/^\| `([a-z][a-z-]*)` \|/gm)].map((match) => match[1])).toEqual(CASES.map(({ id }) => id))
  })

  it("shows a failed case as the check prints it: the case's title and fix, the columns of the whole table", () => {
    const [, shown] = /\nThe table a person reads[^\n]*\n\n```\n([\s\S]*?)\n```/.exec(section('Check your controller')) ?? []
    const [head, evidence] = shown!.split('\n').map((line) => line.trim())
    const id = head!.split(/\s+/)[1]!
    const checks = CASES.map((check) => ({
      id: check.id,
      title: check.title,
      outcome: check.id === id ? ('fail' as const) : ('pass' as const),
      evidence: check.id === id ? evidence! : '',
      fix: check.id === id ? check.fix : null,
    }))
    const printed = formatReport({ checks }, '').split('\n')
    const start = printed.findIndex((line) => line.startsWith('FAIL'))
    expect(printed.slice(start, start + shown!.split('\n').length).join('\n')).toBe(shown)
  })

  it('says where service-auth-mock keeps its state by default, as the code does: relative to the working directory', () => {
    const [, directory] = /by default `([^`]+)`, a path relative to the working directory/.exec(section('Usage')) ?? []
    expect(directory).toBe(DEFAULT_DATA_DIR)
    expect(COMMAND_OPTIONS.data).toMatchObject({ default: DEFAULT_DATA_DIR, doc: expect.stringContaining('relative to the working directory') })
  })
})
