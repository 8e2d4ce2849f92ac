// The e-mails the service would have sent. A local service sends no real mail; tests and people
// read what would have gone out through the knobs instead.
import { randomUUID } from 'node:crypto'
import { BoundedList } from '../../common/bounded-list.ts'

export interface OutboxAttachment {
  filename: string
  contentType: string
  /** Base64 of the file's bytes. */
  content: string
}

export interface OutboxMessage {
  id: string
  /** <timestamp> */
  sentAt: string
  to: string
  /** The locale asked for (sendEmailLocale), and the one the text is in. */
  requestedLocale: string | null
  locale: string
  subject: string
  text: string
  enrollmentId: string
  identifier: string
  attachments: OutboxAttachment[]
}

// Enough to look at; the oldest go first, so a long session cannot grow memory.
const MAX_MESSAGES = 100

export class Outbox {
  #messages = new BoundedList<OutboxMessage>(MAX_MESSAGES)

  add(message: Omit<OutboxMessage, 'id'>): OutboxMessage {
    const stored = { id: randomUUID(), ...message }
    this.#messages.add(stored)
    return stored
  }

  list(): OutboxMessage[] {
    return this.#messages.list()
  }

  clear(): void {
    this.#messages.clear()
  }
}
