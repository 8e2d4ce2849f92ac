// The challenge endpoints' JSON, as the service writes it (spec sections 2 and 4) and the embed
// reads it: one definition for the mock service (demo/service/challenges/), the embed's parser
// (src/api.ts) and the unit tests' fake service (test/helpers.ts). Types only: it adds nothing
// to any bundle.

/** The body of `POST /v1/entity/challenges`. */
export interface ChallengeRequestJson {
  /** The API key (public: it is in the page). */
  key: string
  /** Asks for `authImagesData` beside the image URLs. */
  returnAuthImageData?: boolean
  /** The spec knows `web`; the incumbent embed sends it only when the markup names one. */
  authType?: string
}

/** An image kind, such as `qrcode-standard` or `qrcode-extended`, mapped to something of it. */
export type ByImageKind = Record<string, string>

/** The Challenge object: the answer to `POST /v1/entity/challenges`. */
export interface ChallengeJson {
  id: string
  /** ISO 8601 timestamps, by the service's own clock. */
  createdAt: string
  expiresAt: string
  authType: string
  /** Each image kind offered, to the URL of its image. */
  authImages: ByImageKind
  /** With `returnAuthImageData`: the same kinds, to their PNG in Base64. */
  authImagesData?: ByImageKind
  /** Where the creating browser long-polls the status; it carries that browser's polling secret. */
  pollingUrl: string
  /** The status answer without the hold. */
  authTokenUrl: string
  /** Work in progress in the spec; nothing in the embed reads it. */
  socketsUrl: string
}

/** The answer of the polling URL once the phone has signed (200); 204 until then, 404 unknown, 410 expired. */
export interface SignedStatusJson {
  /** The signed token (a JWT), for the integrator's controller only. */
  token: string
}

/** An RFC 7807 problem, as the service answers every refusal. */
export interface ProblemJson {
  type?: string
  title?: string
  status?: number
  /** What went wrong, for a person: "The API key is not known." */
  detail?: string
}
