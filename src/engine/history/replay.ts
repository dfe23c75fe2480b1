import { redoOf } from '../account/changes'
import type { JournalEntry } from '../operator/exchange-log'
import { recordOf } from '../operator/exchange-log'
import type { OperatorState } from '../operator/state'
import type { Mutation, Store } from '../store'
import type { Call } from '../wire/call'
import { callOfRecord, compareExchanges, unsendable, type Difference } from './compare'
import type { Mark, Step } from './step'

/** What `replay` found. */
export interface ReplayReport {
  /** The branch the exchanges were sent again on, and the one they came from. */
  branch: string
  of: string
  /** Exchanges sent again, and how many answered as the journal holds. */
  exchanges: number
  identical: number
  /** The first that differed: its id, its replay's, and what differed. */
  difference?: { exchange: number; replayed: number | null; differences: Difference[] }
  /** Why the replay stopped before its end, when it did. */
  stopped?: string
}

/** What a replay works on: the account's recorded store, its controls, and its moves. */
export interface ReplayParts {
  /** The store whose commits the history records. */
  recorded: Store
  operator: OperatorState
  /** The account's clock now. */
  now(): number
  resync(at: number): Promise<void>
  /** Puts the store, the controls and the clock where a move leads. */
  move(mutations: Mutation[], mark: Mark, journal: JournalEntry[] | undefined): Promise<void>
  maxBodyBytes: number
}

/**
 * Sends `steps` again (the account standing just before the first, on branch `report.branch`):
 * each change redone, each exchange sent with the controls and clock it met and its answer
 * compared with the journal's; stops at the first that differs or cannot be sent.
 */
export async function replaySteps(
  steps: readonly Step[],
  report: ReplayReport,
  run: (call: Call) => Promise<unknown>,
  parts: ReplayParts,
): Promise<ReplayReport> {
  const timeline = parts.operator.timeline!
  /** Old exchange ids to the ids their replays got: what a journal cut names. */
  const ids = new Map<number, number>()
  for (const step of steps) {
    if (step.kind === 'change') {
      const redo = redoOf([step.commits])
      if (redo.length > 0) await parts.recorded.commit(redo)
      await parts.resync(parts.now())
      if (step.cut) cutJournal(parts.operator, step.cut.after, ids)
      continue
    }
    if (step.exchange === undefined) continue
    if (!step.entry) {
      report.stopped = `exchange ${step.exchange}'s record was let go to keep the history within its budget: replay from a later exchange`
      break
    }
    const expected = { id: step.entry.id, ...recordOf(step.entry.exchange) }
    const why = unsendable(expected)
    if (why) {
      report.stopped = `exchange ${step.exchange} cannot be sent again: ${why}`
      break
    }
    await parts.move([], step.before, undefined)
    await run(callOfRecord(expected, parts.maxBodyBytes))
    const answered = timeline.lastJournalEntry()
    report.exchanges++
    const actual =
      answered && answered.id !== step.entry.id
        ? { id: answered.id, ...recordOf(answered.exchange) }
        : undefined
    if (actual) ids.set(step.exchange, actual.id)
    const differences = actual
      ? compareExchanges(expected, actual)
      : [{ what: 'answer', expected: 'an exchange in the journal', actual: 'none' }]
    if (differences.length > 0) {
      report.difference = { exchange: step.exchange, replayed: actual?.id ?? null, differences }
      break
    }
    report.identical++
  }
  return report
}

/** Takes out of the journal what a replayed change took: the replays of exchanges after `after`. */
function cutJournal(operator: OperatorState, after: number, ids: Map<number, number>): void {
  if (after === 0) return void operator.journal.clear()
  let mapped = 0
  for (const [old, made] of ids) if (old <= after) mapped = Math.max(mapped, made)
  operator.timeline!.dropJournalAfter(mapped)
}
