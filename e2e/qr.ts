// Reads QR codes as a phone's camera would: off the screen (a screenshot of the element), or
// off an image the service sent (the enrollment code). The decoding is the test kit's own.
import type { Locator } from '@playwright/test'
import { readQrPng as decode } from '../packages/mock/src/testing/qr-png.js'

export async function readQr(image: Locator): Promise<string> {
  return readQrPng(await image.screenshot())
}

export function readQrPng(bytes: Buffer): string {
  const text = decode(bytes)
  if (text === undefined) throw new Error('No QR code could be read from the image.')
  return text
}
