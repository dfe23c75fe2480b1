// The control plane's work that grows with what it is asked, done a piece at a time with a turn
// between two pieces: a coverage tally, a JSON answer, a JSON body.

import { parseChunked, stringifyChunked } from '@discoveryjs/json-ext'
import { checkGone } from '../errors'
import { tallyCoverage } from '../insight'
import type { InsightRun } from '../insight/context'
import type { CoverageEntry, CoverageTally } from '../insight/coverage'
import type { Pause } from '../runtime/turns'
import type { Json } from '../store'
import { parseJson } from '../wire/body'
import type { Reply } from '../wire/response'

/** How many journal entries coverage tallies between two turns. */
const COVERAGE_STEP = 256

/**
 * Past this many bytes, a body taking turns is parsed, and an answer written, a piece at a
 * time, a turn between two pieces: a 60 MB import is not one step of the event loop.
 */
const JSON_PIECE = 64 * 1024

/** Coverage of `entries` over `tally`, a few hundred entries between two turns. */
export async function tallyInTurns(
  entries: readonly CoverageEntry[],
  tally: CoverageTally | undefined,
  run: InsightRun,
): Promise<CoverageTally> {
  let sum = tallyCoverage([], ...(tally ? [tally] : []))
  for (let start = 0; start < entries.length; start += COVERAGE_STEP) {
    checkGone(run.signal)
    const turn = run.pause?.()
    if (turn) await turn
    sum = tallyCoverage(entries.slice(start, start + COVERAGE_STEP), sum)
  }
  return sum
}

/**
 * `value` as JSON (no decimal nor timestamp: control-plane answers are plain JSON), written and
 * encoded a piece at a time, a turn between two pieces.
 */
export async function jsonAnswerInTurns(value: Json, pause: Pause): Promise<Reply> {
  const pieces: Uint8Array[] = []
  let size = 0
  for (const piece of stringifyChunked(value, { highWaterMark: JSON_PIECE })) {
    const bytes = encoder.encode(piece)
    pieces.push(bytes)
    size += bytes.byteLength
    const turn = pause()
    if (turn) await turn
  }
  const body = new Uint8Array(size)
  let offset = 0
  for (const piece of pieces) {
    body.set(piece, offset)
    offset += piece.byteLength
  }
  return { status: 200, headers: { 'content-type': 'application/json' }, body }
}

const encoder = new TextEncoder()

/**
 * A JSON body: parsed at once, or a piece at a time with a turn between two pieces when given
 * `pause`. A body that does not parse is refused with the same 400 either way.
 */
export async function parseJsonInTurns(text: string, pause: Pause | undefined): Promise<unknown> {
  if (!pause || text.length <= JSON_PIECE) return parseJson(text)
  async function* pieces() {
    for (let at = 0; at < text.length; at += JSON_PIECE) {
      const turn = pause!()
      if (turn) await turn
      yield text.slice(at, at + JSON_PIECE)
    }
  }
  try {
    return (await parseChunked(pieces)) as unknown
  } catch {
    // Said where it fails, as an unchunked body is.
    return parseJson(text)
  }
}
