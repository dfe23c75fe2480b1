import { MAX_JOURNAL_BYTES } from '../operator/exchange-log'
import type { Line, Step } from './step'

/** The most steps one branch of an account's history keeps: any of its last 10,000 exchanges. */
export const MAX_HISTORY_STEPS = 10_000
/** What the whole history may hold, across branches, in bytes: the journal's own budget. */
export const MAX_HISTORY_BYTES = MAX_JOURNAL_BYTES

/** What a history keeps: its lines, the one the account is on, and what they hold. */
export interface Kept {
  lines: Line[]
  current: Line
  bytes: number
  /** Steps holding an exchange's record, oldest first, from `strip` on: the first to let go. */
  held: Step[]
  strip: number
  /** Each exchange's step, by its id, while the history keeps it. */
  byExchange: Map<number, Step>
}

/**
 * Lets go of what passes the budget: first old exchanges' records (their steps stay
 * reachable, though no longer replayable), then old steps, in batches so that a full history
 * costs no more per exchange than a young one.
 */
export function enforce(kept: Kept): void {
  while (kept.bytes > MAX_HISTORY_BYTES && kept.strip < kept.held.length) {
    const step = kept.held[kept.strip++]!
    if (step.entry && !step.gone) {
      kept.bytes -= step.entry.size
      step.entry = undefined
    }
  }
  if (kept.strip > 1024) {
    kept.held = kept.held.slice(kept.strip)
    kept.strip = 0
  }
  const over = kept.current.steps.length - MAX_HISTORY_STEPS
  if (over > 1024) dropOldest(kept, over)
  while (kept.bytes > MAX_HISTORY_BYTES && kept.current.steps.length > 1) {
    dropOldest(kept, Math.max(1, Math.min(1024, kept.current.steps.length >> 4)))
  }
}

/** The oldest `count` steps go; a branch that left the timeline among them goes with them. */
function dropOldest(kept: Kept, count: number): void {
  const last = kept.current.steps[count - 1]!
  kept.lines = kept.lines.filter((line) => line === kept.current || line.steps[count - 1] === last)
  const gone = kept.current.steps.slice(0, count)
  for (const line of kept.lines) line.steps.splice(0, count)
  for (const step of gone) forget(kept, step)
}

/** A step no branch holds any longer: its bytes given back, its exchange no longer found. */
export function forget(kept: Kept, step: Step): void {
  kept.bytes -= step.bytes + (step.entry?.size ?? 0)
  if (step.exchange !== undefined) kept.byExchange.delete(step.exchange)
  step.gone = true
}
