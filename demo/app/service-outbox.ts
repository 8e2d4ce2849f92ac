// The enrollment e-mail the service would have sent, read from its outbox knob: the mock sends
// no mail, and a real site would not see the mail either; the enrol page shows it for people
// trying the demo.

export interface SentEmail {
  to: string
  subject: string
  text: string
  enrollmentId: string
  attachments: { filename: string }[]
}

/** The e-mail of this enrollment, or undefined when there is none or the knobs are off. */
export async function sentEmailFor(serviceUrl: string, enrollmentId: string): Promise<SentEmail | undefined> {
  try {
    const res = await fetch(serviceUrl + '/__knobs/outbox', { signal: AbortSignal.timeout(5000) })
    if (!res.ok) return undefined
    const messages = (await res.json()) as SentEmail[]
    return messages.filter((message) => message.enrollmentId === enrollmentId).at(-1)
  } catch {
    // Unreachable or not JSON: the page says there is nothing to show, and the code still works.
    return undefined
  }
}
