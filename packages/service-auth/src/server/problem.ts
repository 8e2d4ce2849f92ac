/** One field's complaint in a 400 problem. */
export interface FieldError {
  code: string
  message: string
}

/**
 * The service answered with an error (RFC 7807 problem JSON): `status` 401 (not authenticated,
 * e.g. a consumed challenge or a wrong otp), 403, 404 (no such identity), 423 (locked), 429…
 * A 400 carries `errors`, one list per failing field, which the message names too: the detail
 * alone says only that something was wrong ("The submitted data is invalid.").
 */
export class ServiceError extends Error {
  override name = 'ServiceError'
  readonly title: string
  readonly detail: string
  readonly type?: string
  readonly instance?: string
  readonly errors: Record<string, FieldError[]>

  constructor(
    readonly status: number,
    problem: { title?: unknown; detail?: unknown; type?: unknown; instance?: unknown; errors?: unknown } = {},
    options?: { cause?: unknown },
  ) {
    const text = (value: unknown, fallback = '') => (typeof value === 'string' ? value : fallback)
    const title = text(problem.title, `HTTP ${status}`)
    const detail = text(problem.detail)
    const errors = fieldErrors(problem.errors)
    const fields = Object.entries(errors).map(([field, list]) => `${field}: ${list.map(({ message }) => message).join(' ')}`)
    const said = [detail, ...fields].filter(Boolean).join(' ')
    super(said ? `${title}: ${said}` : title, options)
    this.title = title
    this.detail = detail
    this.type = text(problem.type) || undefined
    this.instance = text(problem.instance) || undefined
    this.errors = errors
  }
}

/**
 * The well-formed entries of a problem's `errors` only, copied: what the type promises, whatever a
 * service (or a proxy before it) answered, so that reading them cannot throw.
 */
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

/** The service could not be reached, or did not answer in time (`status` 0). */
export class ServiceUnreachableError extends ServiceError {
  override name = 'ServiceUnreachableError'
  constructor(message: string, options?: { cause?: unknown }) {
    super(0, { title: 'Service unreachable', detail: message }, options)
  }
}
