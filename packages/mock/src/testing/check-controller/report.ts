// The check's verdicts as a person reads them: a line per case, and under each failure and
// warning what the controller did and how to fix it; a count at the end.
import type { ControllerCheck, ControllerCheckReport, Outcome } from './cases.js'

const MARK: Record<Outcome, string> = { pass: 'pass', fail: 'FAIL', warn: 'warn', skip: 'skip' }
// A terminal's width, give or take: evidence and fixes wrap under their case.
const WIDTH = 110

/** The table the command prints. */
export function formatReport({ checks }: ControllerCheckReport, heading: string): string {
  const width = Math.max(...checks.map(({ id }) => id.length))
  const indent = ' '.repeat(6 + width + 2)
  const lines = [heading, '']
  for (const { id, title, outcome, evidence, fix } of checks) {
    lines.push(`${MARK[outcome]}  ${id.padEnd(width)}  ${title}`)
    if (outcome === 'pass') continue
    lines.push(...wrap(evidence, indent))
    if (fix) lines.push(...wrap(`Fix: ${fix}`, indent))
  }
  lines.push('', summary(checks))
  return lines.join('\n')
}

/** The text in lines of at most WIDTH characters (a longer word gets a line of its own), each indented. */
function wrap(text: string, indent: string): string[] {
  const lines: string[] = []
  let line = ''
  for (const word of text.split(' ')) {
    if (line && indent.length + line.length + 1 + word.length > WIDTH) {
      lines.push(indent + line)
      line = word
    } else line = line ? `${line} ${word}` : word
  }
  return [...lines, indent + line]
}

/** `15 checks: 12 passed, 1 failed, 1 warning, 1 skipped`. */
export function summary(checks: readonly ControllerCheck[]): string {
  const count = (outcome: Outcome) => checks.filter((check) => check.outcome === outcome).length
  const parts = [`${count('pass')} passed`, `${count('fail')} failed`, `${count('warn')} warning${count('warn') === 1 ? '' : 's'}`]
  if (count('skip')) parts.push(`${count('skip')} skipped`)
  return `${checks.length} checks: ${parts.join(', ')}`
}
