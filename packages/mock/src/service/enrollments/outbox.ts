// The e-mails the service would have sent. A local service sends no real mail; tests and people
// read what would have gone out through the knobs instead. Kept in the store like the rest.
import { randomUUID } from 'node:crypto'
import { list, nullable, object, type RecordKind, text, timestamp, wholeNumber } from '../../store/record-shape.js'
import type { Collection } from '../../store/store.js'

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

/** As stored: the message and its place in the outbox. */
export interface OutboxRecord {
  seq: number
  message: OutboxMessage
}

export const OUTBOX_RECORDS: RecordKind<OutboxRecord> = {
  shape: object<OutboxRecord>({
    seq: wholeNumber,
    message: object<OutboxMessage>({
      id: text,
      sentAt: timestamp,
      to: text,
      requestedLocale: nullable(text),
      locale: text,
      subject: text,
      text,
      enrollmentId: text,
      identifier: text,
      attachments: list(object<OutboxAttachment>({ filename: text, contentType: text, content: text })),
    }),
  }),
  key: { field: 'message.id', of: (record) => record.message.id },
}

// Enough to look at; the oldest go first, so a long session cannot grow memory or the store.
const MAX_MESSAGES = 100

export class Outbox {
  /** Oldest first. */
  readonly #records: OutboxRecord[]

  constructor(private readonly records: Collection<OutboxRecord>) {
    this.#records = records.load().sort((a, b) => a.seq - b.seq)
  }

  add(message: Omit<OutboxMessage, 'id'>): OutboxMessage {
    const stored = { id: randomUUID(), ...message }
    const record = { seq: (this.#records.at(-1)?.seq ?? 0) + 1, message: stored }
    this.#records.push(record)
    this.records.put(stored.id, record)
    for (const oldest of this.#records.splice(0, Math.max(0, this.#records.length - MAX_MESSAGES))) this.records.delete(oldest.message.id)
    return stored
  }

  list(): OutboxMessage[] {
    return this.#records.map((record) => record.message)
  }

  clear(): void {
    this.#records.length = 0
    this.records.clear()
  }
}
