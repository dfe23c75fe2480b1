import type { JournalEntry } from '../operator/exchange-log'
import type { Step } from './step'

/**
 * The journal as it stood after the first `count` steps of `steps`: their exchanges, newest
 * last, less those a later change took out, back to the last change that emptied it.
 */
export function journalAt(steps: readonly Step[], count: number, capacity: number): JournalEntry[] {
  const entries: JournalEntry[] = []
  let limit = Infinity
  for (let i = count - 1; i >= 0 && entries.length < capacity; i--) {
    const step = steps[i]!
    if (step.cut) {
      if (step.cut.after === 0) break
      limit = Math.min(limit, step.cut.after)
    }
    if (step.entry && step.entry.id <= limit) entries.push(step.entry)
  }
  return entries.reverse()
}

/**
 * The journal as it stood before step `index` of `steps`: the journal `now`, less what came
 * from that step on, unless a change since took exchanges out of it (then rebuilt from the
 * steps kept).
 */
export function journalBefore(
  steps: readonly Step[],
  index: number,
  now: () => JournalEntry[],
): JournalEntry[] {
  let first = Infinity
  for (let i = index; i < steps.length; i++) {
    const step = steps[i]!
    if (step.cut) return journalAt(steps, index, steps[index]!.before.operator.controls.journal)
    if (step.exchange !== undefined && step.exchange < first) first = step.exchange
  }
  const entries = now()
  let low = 0
  let high = entries.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (entries[middle]!.id < first) low = middle + 1
    else high = middle
  }
  return entries.slice(0, low)
}
