// Reads QR codes as a phone's camera would: off the screen (a screenshot of the element), or
// off an image the service sent (the enrollment code); and draws one as the mock draws its codes,
// for pages that must show the same code on every run.
import type { Locator } from '@playwright/test'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'
import QRCode from 'qrcode'

/** The PNG of a code saying `text`, as the mock service draws a challenge's (200 px, margin 1, level M). */
export const drawQrPng = (text: string): Promise<Buffer> => QRCode.toBuffer(text, { type: 'png', width: 200, margin: 1, errorCorrectionLevel: 'M' })

export async function readQr(image: Locator): Promise<string> {
  return readQrPng(await image.screenshot())
}

export function readQrPng(bytes: Buffer): string {
  const png = PNG.sync.read(bytes)
  const text = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)?.data
  if (text === undefined) throw new Error('No QR code could be read from the image.')
  return text
}
