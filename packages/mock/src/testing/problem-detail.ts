// What a refusal of the mock says, for the kit's messages: the problem JSON's detail, and the
// field errors a 400 carries, which name the field that was wrong ("match: The value you selected
// is not a valid choice. Choose one of: …") where the detail alone says only that something was.
import { type FieldError, ServiceError } from 'service-auth/server'

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

/**
 * Only well-formed entries: a server that is not the mock may answer `errors` of any shape.
 * service-auth/server's ServiceError keeps them so; read from it, not copied.
 */
const fieldErrors = (errors: unknown): Record<string, FieldError[]> => new ServiceError(400, { errors }).errors
