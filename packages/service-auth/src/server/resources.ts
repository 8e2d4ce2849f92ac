// The service's resources as its API answers them: spec section 2, and what the official clients
// read beyond it (Identity.sessions, Session, the app's Configuration).

/** A phone provisioned for an identity (an element of `Identity.tokens`). */
export interface Device {
  id: string
  createdAt: string
  /** Model and label, joined. */
  name: string
  model: string
  label: string
}

/** The browser a sign-in session was started from. */
export interface SessionClient {
  ip: string | null
  /** E.g. `Chrome on Linux`. */
  label: string | null
  browser: string | null
  platform: string | null
  location: string | null
}

/** A sign-in session the service keeps, when the app has sessions on. */
export interface Session {
  id: string
  createdAt: string
  updatedAt: string
  expiresAt: string
  identifier: string | null
  deviceLabel: string
  client: SessionClient
  /** The device that signed. */
  token: Device
}

export interface Identity {
  id: string
  createdAt: string
  locked: boolean
  identifier: string
  nickname: string | null
  /** The nickname, or the identifier without one. */
  label: string
  role: string
  tokens: Device[]
  sessions: Session[]
}

export interface Enrollment {
  id: string
  createdAt: string
  expiresAt: string
  /** The enrollment QR code, a PNG. */
  base64ImageData: string
  identity: Identity
}

/** What a confirmed authentication answers: the identity, and the session it started (null with sessions off). */
export interface Authentication extends Identity {
  session: Session | null
}

/** The app's settings at the service. */
export interface Configuration {
  websiteUrl: string | null
  authenticationUrl: string | null
  registrationUrl: string | null
  /** A confirmed authentication starts a session; the token names it in `sid`. */
  sessionsEnabled: boolean
  /** The same switch, by the name older clients read. */
  supportSessions: boolean
}
