// What a refusal of the mock says, for the kit's messages: the problem JSON's detail, and the
// field errors a 400 carries, which name the field that was wrong ("match: The value you selected
// is not a valid choice. Choose one of: …") where the detail alone says only that something was.
import type { FieldError } from 'service-auth/server'

/** A refusal as the mock (or another server) answered it. */
export interface RefusalProblem {
  /** The problem JSON's detail, or the text as it is (another server's answer). */
  detail: string
  /** Its `errors`, one list per failing field; empty when it has none. */
  errors: Record<string, FieldError[]>
}

/** The detail and the field errors of an answer's text; what is not problem JSON is its own detail. */
export function readProblem(text: string): RefusalProblem {
  let problem: unknown
  try {
    problem = JSON.parse(text)
  } catch {
    return { detail: text, errors: {} }
  }
  if (typeof problem !== 'object' || problem === null) return { detail: text, errors: {} }
  const { detail, errors } = problem as { detail?: unknown; errors?: unknown }
  return { detail: typeof detail === 'string' ? detail : text, errors: fieldErrors(errors) }
}

/** The detail followed by each field and its messages: `The submitted data is invalid. status: This value should be between 200 and 599.` */
export function describeProblem({ detail, errors }: RefusalProblem): string {
  const fields = Object.entries(errors).map(([field, list]) => `${field}: ${list.map(({ message }) => message).join(' ')}`)
  return [detail, ...fields].join(' ')
}

/** Only well-formed entries: a server that is not the mock may answer `errors` of any shape. */
function fieldErrors(errors: unknown): Record<string, FieldError[]> {
  // No prototype: a field named __proto__ stays a field.
  const kept: Record<string, FieldError[]> = Object.create(null)
  if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) return kept
  for (const [field, list] of Object.entries(errors)) {
    if (!Array.isArray(list)) continue
    const valid = list.filter(
      (entry): entry is FieldError => typeof entry === 'object' && entry !== null && typeof entry.message === 'string' && typeof entry.code === 'string',
    )
    if (valid.length > 0) kept[field] = valid.map(({ code, message }) => ({ code, message }))
  }
  return kept
}
