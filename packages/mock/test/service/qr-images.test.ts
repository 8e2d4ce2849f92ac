// @vitest-environment node
// The QR images the service sends: the same pixels qrcode's own PNG renderer draws (what the
// service sent before it wrote its PNGs itself), readable as any PNG is, and rendered a turn of
// the event loop at a time so that other requests are answered between two of them.
import { PNG } from 'pngjs'
import QRCode from 'qrcode'
import { describe, expect, it } from 'vitest'
import { readQrPng } from '../../src/testing/qr-png.js'
import { renderQrPng } from '../../src/service/challenges/qr-images.js'

// Lengths that give codes of versions 1 to 7 (21 to 45 modules a side), the challenge's two
// texts among them: each size has a fractional scale of its own.
const TEXTS = [
  'serviceauth:x',
  'serviceauth:enroll:0d6f',
  'serviceauth:enroll:0d6f0d6f0d6f',
  'serviceauth:challenge:6f1c2d4e-8a5b-4c3d-9e7f-0a1b2c3d4e5f',
  'http://127.0.0.1:8081/app/challenge/6f1c2d4e-8a5b-4c3d-9e7f-0a1b2c3d4e5f',
  'https://service.example/app/challenge/6f1c2d4e-8a5b-4c3d-9e7f-0a1b2c3d4e5f?and=a-longer-tail',
  `https://service.example/${'x'.repeat(90)}`,
]

describe('renderQrPng', () => {
  it.each(TEXTS)('draws the pixels of qrcode’s own renderer, in a PNG any decoder reads: %s', async (text) => {
    const ours = PNG.sync.read(await renderQrPng(text))
    const theirs = PNG.sync.read(await QRCode.toBuffer(text, { type: 'png', width: 200, margin: 1, errorCorrectionLevel: 'M' }))
    expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height])
    // Both decoded to RGBA: every pixel black or white, in the same places.
    expect(Buffer.compare(ours.data, theirs.data)).toBe(0)
    expect(readQrPng(await renderQrPng(text))).toBe(text)
  })

  it('covers codes of seven sizes', () => {
    const sizes = new Set(TEXTS.map((text) => QRCode.create(text, { errorCorrectionLevel: 'M' }).modules.size))
    expect([...sizes].sort((a, b) => a - b)).toEqual([21, 25, 29, 33, 37, 41, 45])
  })

  it('rejects a text too long for a QR code, and renders the next one as ever', async () => {
    await expect(renderQrPng('x'.repeat(5000))).rejects.toThrow(/too big/)
    expect(readQrPng(await renderQrPng(TEXTS[0]!))).toBe(TEXTS[0])
  })

  it('renders one code per turn of the event loop, in order, so that requests are served between two', async () => {
    // A turn counter: an immediate that queues the next one counts each turn of the loop.
    let turn = 0
    let counting = true
    const count = () => {
      turn++
      if (counting) setImmediate(count)
    }
    setImmediate(count)
    const doneIn: number[] = []
    const renders = TEXTS.map((text, i) => renderQrPng(text).then(() => (doneIn[i] = turn)))
    await Promise.all(renders)
    counting = false
    // Rendering them all in one go would finish them in one turn, with the loop serving nothing meanwhile.
    for (let i = 1; i < TEXTS.length; i++) expect(doneIn[i]).toBeGreaterThan(doneIn[i - 1]!)
  })
})
