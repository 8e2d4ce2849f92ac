/** One field's complaint in a 400 problem. */
export interface FieldError {
  code: string
  message: string
}

/**
 * The service answered with an error (RFC 7807 problem JSON): `status` 401 (not authenticated,
 * e.g. a consumed challenge or a wrong otp), 403, 404 (no such identity), 423 (locked), 429…
 * A 400 carries `errors`, one list per failing field.
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
    super(detail ? `${title}: ${detail}` : title, options)
    this.title = title
    this.detail = detail
    this.type = text(problem.type) || undefined
    this.instance = text(problem.instance) || undefined
    this.errors = problem.errors && typeof problem.errors === 'object' ? (problem.errors as Record<string, FieldError[]>) : {}
  }
}

/** The service could not be reached, or did not answer in time (`status` 0). */
export class ServiceUnreachableError extends ServiceError {
  override name = 'ServiceUnreachableError'
  constructor(message: string, options?: { cause?: unknown }) {
    super(0, { title: 'Service unreachable', detail: message }, options)
  }
}
