// How a refusal names the value it was given, for the TypeErrors of the mock's entries that a
// caller in JavaScript can get wrong (a port, a directory, a URL, options).

/** A value as a message names it: a string quoted, anything else as it prints. */
export const given = (value: unknown): string => (typeof value === 'string' ? JSON.stringify(value) : String(value))
