// The challenge's QR images: what each kind encodes, and the PNG itself.
import QRCode from 'qrcode'

export const IMAGE_KINDS = ['qrcode-standard', 'qrcode-extended'] as const
export type ImageKind = (typeof IMAGE_KINDS)[number]

export const isImageKind = (kind: string): kind is ImageKind => (IMAGE_KINDS as readonly string[]).includes(kind)

/**
 * The standard code carries only the challenge, for the service's own app; the extended one
 * is a URL, so a phone camera without the app still lands somewhere useful.
 */
export function qrText(kind: ImageKind, challengeId: string, serviceUrl: string): string {
  return kind === 'qrcode-standard' ? `serviceauth:challenge:${challengeId}` : `${serviceUrl}/app/challenge/${encodeURIComponent(challengeId)}`
}

export function renderQrPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: 'png', width: 200, margin: 1, errorCorrectionLevel: 'M' })
}
