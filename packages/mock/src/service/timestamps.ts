// Timestamps as the spec writes them: ISO 8601 in UTC with an explicit offset.

/** `2025-01-31T12:00:00.000+00:00`; milliseconds stay, because test lifetimes are often shorter than a second's rounding matters. */
export const toTimestamp = (date: Date): string => date.toISOString().replace(/Z$/, '+00:00')
