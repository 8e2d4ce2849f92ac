// The challenge on the wire (spec section 2), defined once: the mock writes it, the embed reads
// it, and the tests fake it, all from these types. Types only, so the browser bundle pays nothing.

/** The body of `POST /v1/entity/challenges` that a browser sends: unsigned, so the key alone. */
export interface CreateChallengeBody {
  key: string
  /** The kind of sign-in; the spec knows `web`. */
  authType?: string
  /** Asks for `authImagesData` beside the image URLs. */
  returnAuthImageData?: boolean
}

/** A challenge, as the service answers its creation (201). */
export interface ChallengeJson {
  id: string
  /** ISO 8601, by the service's clock; with `expiresAt`, the code's lifetime. */
  createdAt: string
  expiresAt: string
  authType?: string
  /** The QR image's URL by image kind (`qrcode-standard` and the rest). */
  authImages: Record<string, string>
  /** The same images as base64 PNG, by kind, when `returnAuthImageData` asked for them. */
  authImagesData?: Record<string, string>
  /** Long-polled for the status; it carries the secret that only the creating browser knows. */
  pollingUrl: string
  /** The status without the hold. */
  authTokenUrl: string
  /** Work in progress in the spec; nothing listens. */
  socketsUrl: string
}

/** The status once the phone has signed (200); before that the answer is 204, without a body. */
export interface ChallengeStatusJson {
  token: string
}
