// @vitest-environment node
// The mutation score as BENCHMARKS.md shows it: counted as Stryker counts it, and every survivor
// listed with the reason it stays, or flagged for want of one.
import { describe, expect, it } from 'vitest'
import { mutationSection, reasonKey, summarize, type StrykerReport } from '../bench/mutation.js'

const report: StrykerReport = {
  files: {
    '/repo/src/view.ts': {
      source: 'const a = 1\nroot.tabIndex = -1\n',
      mutants: [
        { mutatorName: 'NumberLiteral', replacement: '0', status: 'Killed', location: { start: { line: 1 } } },
        { mutatorName: 'UnaryOperator', replacement: '+1', status: 'Survived', location: { start: { line: 2 } } },
        { mutatorName: 'BlockStatement', replacement: '{}', status: 'Timeout', location: { start: { line: 1 } } },
        { mutatorName: 'StringLiteral', replacement: '""', status: 'NoCoverage', location: { start: { line: 2 } } },
        { mutatorName: 'StringLiteral', replacement: '""', status: 'CompileError', location: { start: { line: 2 } } },
      ],
    },
  },
}

describe('the mutation summary', () => {
  const summary = summarize(report, { date: '2026-11-24T20:00:00.000Z', commit: 'abc1234' })

  it('scores detected (killed or timed out) over valid mutants, as Stryker does', () => {
    expect(summary).toMatchObject({ mutants: 5, killed: 1, timedOut: 1, survived: 1, noCoverage: 1, score: 50 })
  })

  it('lists each undetected mutant with its file under src/, line and code', () => {
    expect(summary.survivors).toEqual([
      { file: 'src/view.ts', line: 2, code: 'root.tabIndex = -1', mutator: 'UnaryOperator', replacement: '+1', status: 'Survived' },
      { file: 'src/view.ts', line: 2, code: 'root.tabIndex = -1', mutator: 'StringLiteral', replacement: '""', status: 'NoCoverage' },
    ])
  })

  it('shows the score and a reason for each survivor, and flags those without one', () => {
    const text = mutationSection(summary, { [reasonKey(summary.survivors[0])]: 'Equivalent: nothing reads it.' }).join('\n')
    expect(text).toContain('**Mutation score 50.00 %**')
    expect(text).toContain('| src/view.ts:2 | UnaryOperator: `root.tabIndex = -1` → `+1` | Equivalent: nothing reads it. |')
    expect(text).toContain('**No reason recorded: a test should kill it.**')
    expect(text).toContain('1 survivor has no reason recorded yet')
  })

  it('says when it never ran', () => {
    expect(mutationSection(undefined, {}).join('\n')).toContain('Not run yet')
  })

  it("gives the controller helper's run a part of its own, named by its command", () => {
    const text = mutationSection(summary, {}, 'server').join('\n')
    expect(text).toMatch(/^### service-auth\/server\n\n`npm run mutate:server` \(Stryker 9\.4 with its vitest runner, over src\/server\/\*\.ts /)
    expect(text).toContain('**Mutation score 50.00 %**')
    expect(mutationSection(undefined, {}, 'server').join('\n')).toContain('_Not run yet: `npm run mutate:server`._')
  })
})
