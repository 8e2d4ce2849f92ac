// Measure 1: the bytes each artefact costs, as the build's manifest records them (the same numbers
// test/build.test.ts holds the IIFE to), beside the naive baseline's script for scale.
import { readFile } from 'node:fs/promises'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { BASELINE_SCRIPT } from './pages.js'
import { median } from './stats.js'

export interface SizeRow {
  file: string
  bytes: number
  gzip: number
  brotli: number
}

export interface SizeResult {
  /** Every file but the language packs', which `packs` sums up (the file of them all is here). */
  files: SizeRow[]
  /** The language packs, service-auth.<code>.js, one per language: how many, and their gzipped sizes. Absent in runs before issue 35. */
  packs?: { count: number; gzip: { min: number; median: number; max: number }; largest: string }
  /** The naive 800 ms poller of the sign-to-navigation phase, minified by nothing: it does far less. */
  baseline: SizeRow
  /** `integrity` names the very bytes measured, whatever the state of src/ was. */
  iife: { file: string; gzip: number; budget: number; aim: number; integrity: string }
}

export const IIFE = 'service-auth.js'
/** A language pack's file: service-auth.de.js, service-auth.pt-BR.js. */
const PACK = /^service-auth\.[a-z]{2}(-[A-Z]{2})?\.js$/
export const AIM = 2500

export async function measureSize(distDir: string): Promise<SizeResult> {
  // The budget as the build defines it (IIFE_BUDGET in build.mjs), which writes it into the manifest.
  const manifest = JSON.parse(await readFile(`${distDir}/manifest.json`, 'utf8')) as {
    budget: Record<string, { gzip: number }>
    files: Record<string, { bytes: number; gzip: number; brotli: number; integrity: string }>
  }
  // The versioned copies are byte-identical to the plain ones (a test holds them to that).
  const all = Object.entries(manifest.files)
    .filter(([file]) => !/-\d+\.\d+\.\d+/.test(file))
    .map(([file, { bytes, gzip, brotli }]) => ({ file, bytes, gzip, brotli }))
  // Forty-odd rows of one kind say less than their spread: the packs are summed up apart.
  const isPack = (row: SizeRow) => PACK.test(row.file)
  const packs = all.filter(isPack).sort((a, b) => a.gzip - b.gzip)
  const iife = manifest.files[IIFE]
  if (!iife) throw new Error(`${IIFE} is not in dist/manifest.json; did the build run?`)
  return {
    files: all.filter((row) => !isPack(row)),
    packs: packs.length
      ? {
          count: packs.length,
          gzip: { min: packs[0]!.gzip, median: median(packs.map((row) => row.gzip)), max: packs.at(-1)!.gzip },
          largest: packs.at(-1)!.file,
        }
      : undefined,
    baseline: compressed('baseline (naive poller)', Buffer.from(BASELINE_SCRIPT)),
    iife: { file: IIFE, gzip: iife.gzip, budget: manifest.budget[IIFE].gzip, aim: AIM, integrity: iife.integrity },
  }
}

// Compressed as build.mjs compresses, so the rows compare.
function compressed(file: string, bytes: Buffer): SizeRow {
  return {
    file,
    bytes: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  }
}
