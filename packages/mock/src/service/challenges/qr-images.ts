// The challenge's QR images: what each kind encodes, and the PNG itself.
import QRCode from 'qrcode'
import { bilevelPng } from '../../common/bilevel-png.js'
import { TurnQueue } from '../../common/turn-queue.js'

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

const WIDTH = 200
const MARGIN = 1

// Renders wait their turn here, so that knobs and status polls are answered between them.
const rendering = new TurnQueue()

/**
 * The code as a 200-pixel PNG with a one-module margin, rendered in a turn of the event loop of
 * its own (see TurnQueue). The pixels are those qrcode's own PNG renderer draws (the same scale
 * and rounding; its test holds it), written one bit each (see bilevelPng): about a fifth of
 * qrcode's renderer's time, which fills and filters 4 bytes per pixel.
 */
export function renderQrPng(text: string): Promise<Buffer> {
  return rendering.run(() => {
    const { size, data } = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules
    const scale = WIDTH / (size + MARGIN * 2)
    const width = Math.floor((size + MARGIN * 2) * scale)
    const margin = MARGIN * scale
    const inside = (pixel: number) => pixel >= margin && pixel < width - margin
    const module = (pixel: number) => Math.floor((pixel - margin) / scale)
    return bilevelPng({
      width,
      height: width,
      isDark: (x, y) => inside(x) && inside(y) && data[module(y) * size + module(x)] !== 0,
      // The rows outside the code are all light, like the margin row before them.
      rowKey: (y) => (inside(y) ? module(y) : -1),
    })
  })
}
