// The abuse phase (abuse.ts) in words: its plan, the lines `npm run bench:abuse` prints, its
// section of BENCHMARKS.md and its verdict. Kept apart from report.ts, which it plugs into.
import type { AbuseResult } from './abuse.js'
import { percentile } from './stats.js'

/** 200 creations a second is the issue's load; both phases' sign-ins stay under the person's 120 creations a minute. */
export const ABUSE_PLAN = {
  full: { botRate: 200, signIns: 40, everyMs: 250 },
  quick: { botRate: 200, signIns: 10, everyMs: 250 },
} as const

const ms = (values: number[], p: number) => (values.length ? `${percentile(values, p).toFixed(1)} ms` : '–')

/** What one run found, a line per figure. */
export function abuseLines(a: AbuseResult): string[] {
  const { created, limited, other, errors } = a.bot
  return [
    `state: ${a.store}`,
    `bot: ${Math.round(a.botAchievedRate)} creations/s for ${a.durationS.toFixed(1)} s: ${created} created, ${limited} answered 429, ${other} other, ${errors} without answer`,
    `signed authenticate, without the bot: ${a.quiet.length} of ${a.quiet.length + a.failed.quiet} succeeded, p50 ${ms(a.quiet, 50)}, p99 ${ms(a.quiet, 99)}`,
    `signed authenticate, under the bot:    ${a.abused.length} of ${a.abused.length + a.failed.abused} succeeded, p50 ${ms(a.abused, 50)}, p99 ${ms(a.abused, 99)}`,
    ...(a.firstFailure ? [`first failure: ${a.firstFailure}`] : []),
  ]
}

/** The verdict: every sign-in under the bot ends in a 200 from authenticate. */
export function abuseVerdict(a: AbuseResult) {
  return {
    measure: `Signed authenticate while ${a.botRate} anonymous creations/s hammer the key`,
    figure: `${a.abused.length} of ${a.abused.length + a.failed.abused} succeeded, p99 ${ms(a.abused, 99)} (${ms(a.quiet, 99)} without)`,
    goal: 'every one succeeds; p99 reported',
    verdict: a.failed.abused === 0 && a.abused.length > 0 ? ('met' as const) : ('missed' as const),
  }
}

/** The BENCHMARKS.md section: a heading, the method, and a table. */
export function abuseSection(a: AbuseResult): string[] {
  const row = (label: string, values: number[], failed: number) =>
    `| ${label} | ${values.length} of ${values.length + failed} | ${ms(values, 50)} | ${ms(values, 99)} | ${values.length ? `${Math.max(...values).toFixed(1)} ms` : '–'} |`
  return [
    '## 7. A key under anonymous abuse',
    `The API key is in every login page, so anyone can create challenges with it. Here a bot does, ${a.botRate} a second from an address of its own (127.0.0.2), open loop, against the mock service alone in a child process, its state ${a.store === 'data directory' ? 'in a data directory (every confirmation on disk before authenticate answers)' : 'in memory'}, with its default rate limits (600 signed calls a minute per key; 120 creations a minute per key and client address). Once the bot has spent its budget (its first 429), people sign in one after another from another address (127.0.0.1): create a challenge, the phone signs, the browser reads the token from its pollingUrl, and the integrator's server confirms it with a signed \`authenticate\` (\`createClient\` of \`service-auth/server\`), which is timed. The same sign-ins ran first without the bot. The bot reached ${Math.round(a.botAchievedRate)} creations/s over ${a.durationS.toFixed(1)} s: ${a.bot.created} created, ${a.bot.limited} answered 429, ${a.bot.other + a.bot.errors} other or unanswered. \`npm run bench:abuse\` runs this phase alone and prints it.`,
    [
      '| Signed authenticate | succeeded | p50 | p99 | max |',
      '|---|---:|---:|---:|---:|',
      row('without the bot', a.quiet, a.failed.quiet),
      row(`under ${a.botRate} creations/s`, a.abused, a.failed.abused),
    ].join('\n'),
  ]
}
