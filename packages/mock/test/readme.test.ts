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

  it('says where service-auth-mock keeps its state by default, as the code does: relative to the working directory', () => {
    const [, directory] = /by default `([^`]+)`, a path relative to the working directory/.exec(section('Usage')) ?? []
    expect(directory).toBe(DEFAULT_DATA_DIR)
    expect(COMMAND_OPTIONS.data).toMatchObject({ default: DEFAULT_DATA_DIR, doc: expect.stringContaining('relative to the working directory') })
  })
})
