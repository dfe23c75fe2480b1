import type { CommitRecord } from '../account/changes'
import type { JournalEntry } from '../operator/exchange-log'
import type { OperatorMark } from '../operator/state'

/** The commits of a step that made none: one list for them all, never written to. */
export const NONE: CommitRecord[] = []

/** Where the operator's controls and the clock stood before a step. */
export interface Mark {
  operator: OperatorMark
  clock: { offset: number; at: number }
}

/**
 * One step of an account's timeline (decision 086): an exchange, or a change made between
 * exchanges (through the control plane or the Node API: secrets, the clock, a reset, an
 * import, a restore). Each keeps what stood before it and what its commits changed.
 */
export interface Step {
  readonly seq: number
  readonly kind: 'exchange' | 'change'
  readonly before: Mark
  /** What its commits changed, in the order they were committed. */
  commits: CommitRecord[]
  /** The exchange's id in the journal, once answered. */
  exchange?: number
  /** The exchange as the journal kept it, while the history's budget holds it. */
  entry?: JournalEntry
  /** What a change took out of the journal: every exchange after `after` (0: all). */
  cut?: { after: number }
  /** Bytes of its commits and marks (its entry counted apart). */
  bytes: number
  /** Let go: on no branch any longer. */
  gone?: true
}

/** A line of the account's history: its steps from the oldest kept, and where it was left. */
export interface Line {
  id: string
  name: string
  /** Unix seconds on the account's clock when it was made. */
  createdAt: number
  /** The branch it was made from, and the exchange it goes back to before. */
  from: { branch: string; before: number } | null
  steps: Step[]
  /** How the account stood when it was last on it and left: to come back to. */
  head?: { mark: Mark; journal: JournalEntry[] }
}

export function newLine(
  id: string,
  name: string,
  createdAt: number,
  from: Line['from'],
  steps: Step[],
): Line {
  return { id, name, createdAt, from, steps }
}

/** How many first steps two lines share. */
export function shared(a: readonly Step[], b: readonly Step[]): number {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return i
}

/** Each step's commits, from `from` to `to`, as lists (none copied). */
export function commitsOf(steps: readonly Step[], from = 0, to = steps.length): CommitRecord[][] {
  const lists: CommitRecord[][] = []
  for (let i = from; i < to; i++) lists.push(steps[i]!.commits)
  return lists
}

/** Where `step` stands on `line` (its steps are in the order they began), or -1. */
export function indexOn(line: Line, step: Step): number {
  let low = 0
  let high = line.steps.length
  while (low < high) {
    const middle = (low + high) >> 1
    if (line.steps[middle]!.seq < step.seq) low = middle + 1
    else high = middle
  }
  return line.steps[low] === step ? low : -1
}
