// Reads QR codes as a phone's camera would: off the screen (a screenshot of the element), or
// off an image the service sent (the enrollment code).
import type { Locator } from '@playwright/test'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'

export async function readQr(image: Locator): Promise<string> {
  return readQrPng(await image.screenshot())
}

export function readQrPng(bytes: Buffer): string {
  const png = PNG.sync.read(bytes)
  const text = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)?.data
  if (text === undefined) throw new Error('No QR code could be read from the image.')
  return text
}
