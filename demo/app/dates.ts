// The one way the demo writes a date: the way the service's enrollment e-mail does (English,
// UTC), so the enrol page and the e-mail beside it agree word for word. public/phone-app.js
// formats the same way in the browser; keep the two in step.

const FORMAT = new Intl.DateTimeFormat('en', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' })

/** `November 24, 2026 at 12:15 AM (UTC)`. */
export const readableDate = (timestamp: string): string => `${FORMAT.format(new Date(timestamp))} (UTC)`
