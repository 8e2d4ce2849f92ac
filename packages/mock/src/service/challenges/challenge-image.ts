// GET /v1/entity/challenges/{id}/images/{kind}: the QR code as a PNG, for embeds that show
// the image by URL instead of inline data.
import { HttpProblem, sendBytes } from '@service-auth/http'
import type { Challenge } from './challenge-store.js'
import type { Handler } from '../context.js'
import { IMAGE_KINDS, isImageKind, qrText, renderQrPng, type ImageKind } from './qr-images.js'

export function imageUrl(serviceUrl: string, challengeId: string, kind: ImageKind): string {
  return `${serviceUrl}/v1/entity/challenges/${encodeURIComponent(challengeId)}/images/${kind}`
}

/** The PNG of one kind, rendered once per challenge: the inline data and the URL show the same image. */
export function challengePng(challenge: Challenge, kind: ImageKind, serviceUrl: string): Promise<Buffer> {
  let png = challenge.images.get(kind)
  if (!png) challenge.images.set(kind, (png = renderQrPng(qrText(kind, challenge.id, serviceUrl))))
  return png
}

export const serveChallengeImage: Handler = async (context, { res, params: [id, kind] }) => {
  const challenge = context.stores.challenges.get(id ?? '')
  if (!challenge) throw new HttpProblem(404, 'There is no challenge with this id.')
  if (!kind || !isImageKind(kind)) {
    throw new HttpProblem(404, `There is no image of this kind. Kinds: ${IMAGE_KINDS.join(', ')}.`)
  }
  sendBytes(res, 200, await challengePng(challenge, kind, context.addresses.publicUrl), 'image/png')
}
