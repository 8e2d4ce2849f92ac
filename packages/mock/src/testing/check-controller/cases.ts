// What a case of the controller check is, and what the check reports: as the OpenID Foundation's
// conformance suite does for relying parties, one case sends one thing (a valid sign-in, or one
// flaw), and ends in one named verdict with its evidence and, when it is not a pass, its fix.
import type { Attempt, Browser } from './browser.js'
import type { MockSide } from './mock-side.js'
import type { SignedToken, Tokens } from './tokens.js'
import type { OptionNames } from './check-controller.js'

/** `pass`; `fail`: the controller does something unsafe or broken; `warn`: a weakness; `skip`: nothing to judge. */
export type Outcome = 'pass' | 'fail' | 'warn' | 'skip'

/** One case's verdict, as `checkController` resolves to it and `--json` prints it. */
export interface ControllerCheck {
  /** The case's name, such as `alg-none`. */
  id: string
  /** What it sends, in a line. */
  title: string
  outcome: Outcome
  /** What the controller did: its answer, what `--signed-in` said, what reached the mock. */
  evidence: string
  /** What to change when the outcome is `fail` or `warn`; null otherwise. */
  fix: string | null
}

/** What `checkController` resolves to: every case's verdict, in the order of the table. */
export interface ControllerCheckReport {
  checks: ControllerCheck[]
}

/** What a case ends in; `fix` replaces the case's own where the evidence calls for another. */
export interface Verdict {
  outcome: Outcome
  evidence: string
  fix?: string
}

/** What the cases share: the mock, the browser, the tokens, and who signs. */
export interface CaseContext {
  mock: MockSide
  browser: Browser
  tokens: Tokens
  /** The user the app's store lets sign in (`--identity`). */
  identity: string
  /** What the caller calls each option (`--identity` from the command, `identity` from checkController), for the fixes that name one. */
  names: OptionNames
  /** An identity with a phone whom no store knows, made for this run. */
  stranger: string
  /** The valid sign-in (case `valid-sign-in`), once it ran: the cases that build on it read it. */
  signIn?: { token: SignedToken; attempt: Attempt; accepted: boolean }
}

export interface CheckCase {
  id: string
  /** `must-pass`, `must-refuse` (and start no session), or `warning`. */
  kind: 'must-pass' | 'must-refuse' | 'warning'
  title: string
  fix: string
  /**
   * Runs beside the cases after it: it calls `ready()` once they may go on (it waits on something
   * slow meanwhile, a controller that waits for the service, say), and resolves later.
   */
  background?: boolean
  run(context: CaseContext, ready: () => void): Promise<Verdict>
}
