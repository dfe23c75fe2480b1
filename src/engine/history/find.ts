import { UndefinedError } from '../errors'
import type { Kept } from './budget'
import { notInHistory } from './refusals'
import { indexOn, type Line, type Step } from './step'

/** Where a step stands: on which line, at which index. */
export interface Place {
  line: Line
  index: number
}

/** Line `id`, or a 404 naming how many the account keeps. */
export function lineOf(kept: Kept, id: string): Line {
  const line = kept.lines.find((l) => l.id === id)
  if (!line) {
    throw new UndefinedError(
      `no branch \`${id}': GET _account/branches lists the ${kept.lines.length} the account keeps`,
    )
  }
  return line
}

/** The oldest exchange any branch keeps. */
export function oldestExchange(kept: Kept): number | null {
  let found: number | null = null
  for (const line of kept.lines) {
    const first = line.steps.find((step) => step.exchange !== undefined)?.exchange
    if (first !== undefined && (found === null || first < found)) found = first
  }
  return found
}

/** Where exchange `id` is (on the current line first), or a 404 or 410 saying why not. */
export function locate(kept: Kept, id: number): Place {
  const step = kept.byExchange.get(id)
  if (step) {
    for (const line of [kept.current, ...kept.lines.filter((l) => l !== kept.current)]) {
      const index = indexOn(line, step)
      if (index >= 0) return { line, index }
    }
  }
  throw notInHistory(id, oldestExchange(kept))
}

/** The steps from exchange `from` (at `start`) to exchange `to` of the same line (its last by default). */
export function spanFrom(
  start: Place,
  from: number,
  to: number | undefined,
): { line: Line; steps: Step[] } {
  let end = start.line.steps.length - 1
  if (to !== undefined) {
    end = start.line.steps.findIndex((step, i) => i >= start.index && step.exchange === to)
    if (end < 0) {
      throw new UndefinedError(
        `no exchange ${to} after exchange ${from} on branch \`${start.line.id}': \`to' names the last exchange to replay, on the same branch`,
      )
    }
  }
  return { line: start.line, steps: start.line.steps.slice(start.index, end + 1) }
}
