// Reads a QR code out of a PNG, as a phone's camera would: the test kit reads the sign-in code
// off a screenshot of the page, never from the widget's insides.
import jsQR from 'jsqr'
import { PNG } from 'pngjs'

/** The text of the QR code in the PNG, or undefined when none can be read (say, the image is not painted yet). */
export function readQrPng(bytes: Uint8Array): string | undefined {
  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
  return jsQR(new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length), png.width, png.height)?.data
}
