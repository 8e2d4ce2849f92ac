// Each app's settings at the service. The spec does not show them, but every official client
// reads and writes them (GET and PATCH /v1/entity/configuration): where the app's site and
// controller live, and whether confirmed sign-ins start sessions the service keeps.
import { flag, nullable, object, type RecordKind, text } from '../../store/record-shape.js'
import type { Collection } from '../../store/store.js'

export interface AppConfiguration {
  websiteUrl: string | null
  authenticationUrl: string | null
  registrationUrl: string | null
  /** A confirmed authentication starts a session, and the token names it in `sid`. */
  sessionsEnabled: boolean
}

const DEFAULTS: Readonly<AppConfiguration> = Object.freeze({
  websiteUrl: null,
  authenticationUrl: null,
  registrationUrl: null,
  sessionsEnabled: false,
})

/** As stored: by app. */
export type ConfigurationRecord = AppConfiguration & { app: string }

export const CONFIGURATION_RECORDS: RecordKind<ConfigurationRecord> = {
  shape: object<ConfigurationRecord>({
    app: text,
    websiteUrl: nullable(text),
    authenticationUrl: nullable(text),
    registrationUrl: nullable(text),
    sessionsEnabled: flag,
  }),
  key: { field: 'app', of: (record) => record.app },
}

export class ConfigurationStore {
  readonly #byApp = new Map<string, AppConfiguration>()

  constructor(private readonly records: Collection<ConfigurationRecord>) {
    for (const { app, ...configuration } of records.load()) this.#byApp.set(app, configuration)
  }

  get(app: string): Readonly<AppConfiguration> {
    return this.#byApp.get(app) ?? DEFAULTS
  }

  /** Sets the fields given; the others stay. */
  update(app: string, changes: Partial<AppConfiguration>): Readonly<AppConfiguration> {
    const next = { ...this.get(app) }
    for (const [name, value] of Object.entries(changes)) {
      if (value !== undefined) Object.assign(next, { [name]: value })
    }
    this.#byApp.set(app, next)
    this.records.put(app, { app, ...next })
    return next
  }

  /** Forgets one app's settings (the app of a freed key: key-knobs.ts). */
  forgetApp(app: string): void {
    if (this.#byApp.delete(app)) this.records.delete(app)
  }

  clear(): void {
    this.#byApp.clear()
    this.records.clear()
  }
}
