// Maps a position in the minified bundle back to src/, through the source map the build writes,
// so the profile can name `src/style.ts:12` instead of column 5958 of one long line. A source
// map's mappings are Base64 VLQ; decoding them takes a few lines, not a dependency.

export interface Original {
  source: string
  /** 1-based, as editors count. */
  line: number
}

interface SourceMap {
  sources: string[]
  mappings: string
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

export class SourceMapper {
  /** Per generated line: [column, source index, original line] segments, by column. */
  readonly #lines: [number, number, number][][] = []
  readonly #sources: string[]

  constructor(map: SourceMap) {
    this.#sources = map.sources.map((source) => source.replace(/^(\.\.\/)+/, ''))
    let source = 0
    let originalLine = 0
    for (const line of map.mappings.split(';')) {
      const segments: [number, number, number][] = []
      let column = 0
      for (const segment of line.split(',')) {
        if (!segment) continue
        const fields = decodeVlq(segment)
        column += fields[0]!
        if (fields.length >= 4) {
          source += fields[1]!
          originalLine += fields[2]!
          segments.push([column, source, originalLine])
        }
      }
      this.#lines.push(segments)
    }
  }

  /** The original position of a generated one (0-based line and column, as V8 reports them). */
  lookup(line: number, column: number): Original | undefined {
    const segments = this.#lines[line] ?? []
    let found: [number, number, number] | undefined
    for (const segment of segments) {
      if (segment[0] > column) break
      found = segment
    }
    return found && { source: this.#sources[found[1]]!, line: found[2] + 1 }
  }
}

function decodeVlq(segment: string): number[] {
  const values: number[] = []
  let value = 0
  let shift = 0
  for (const char of segment) {
    const digit = BASE64.indexOf(char)
    value += (digit & 31) << shift
    if (digit & 32) {
      shift += 5
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1)
      value = 0
      shift = 0
    }
  }
  return values
}
