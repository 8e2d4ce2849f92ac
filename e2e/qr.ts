// Reads a QR code off the screen, as a phone's camera would: a screenshot of the element, decoded.
import type { Locator } from '@playwright/test'
import jsQR from 'jsqr'
import { PNG } from 'pngjs'

export async function readQr(image: Locator): Promise<string> {
  const png = PNG.sync.read(await image.screenshot())
  const code = jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)
  if (!code) throw new Error('No QR code could be read from the screen.')
  return code.data
}
