// A PNG of black and white pixels, one bit each (grayscale, bit depth 1): the smallest format a
// QR code fits, and one every PNG decoder must read. Written here rather than through a general
// PNG library because the general path is most of a challenge's cost: it fills 4 bytes of RGBA
// per pixel, tries every row filter and deflates 32 times the data. One bit per pixel, no
// filter and one deflate of about 5 KB make the same image in a small fraction of the time.
import { deflateSync } from 'node:zlib'

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** An image of dark and light pixels. */
export interface Bilevel {
  width: number
  height: number
  /** Whether pixel (x, y) is dark. */
  isDark(x: number, y: number): boolean
  /** A key per row: a row whose key is its predecessor's is the same row, copied rather than computed again. */
  rowKey?(y: number): number
}

/** The PNG of the image, dark pixels black and the others white. */
export function bilevelPng({ width, height, isDark, rowKey }: Bilevel): Buffer {
  // Each row: a filter byte (0, none), then the pixels, 8 to a byte, the first in the high bit.
  const stride = 1 + Math.ceil(width / 8)
  const raw = Buffer.alloc(stride * height)
  let previousKey: number | undefined
  for (let y = 0; y < height; y++) {
    const row = y * stride
    const key = rowKey?.(y)
    if (key !== undefined && key === previousKey) {
      raw.copy(raw, row, row - stride, row)
      continue
    }
    previousKey = key
    for (let x = 0; x < width; x++) {
      // In grayscale, 1 is white: a light pixel sets its bit.
      if (!isDark(x, y)) raw[row + 1 + (x >> 3)]! |= 0x80 >> (x & 7)
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  // Bit depth 1, colour type 0 (grayscale), deflate, filtering method 0, no interlace.
  header.set([1, 0, 0, 0, 0], 8)
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))])
}

/** A chunk: its length, type, data and the CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, 'latin1')
  data.copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}

// The CRC-32 of PNG (and zlib, and gzip). zlib.crc32 would do, but only from Node 20.15; the
// package supports every Node 20.
let table: Uint32Array | undefined

function crc32(bytes: Uint8Array): number {
  table ??= Uint32Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  let crc = 0xffffffff
  for (const byte of bytes) crc = table[(crc ^ byte) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}
