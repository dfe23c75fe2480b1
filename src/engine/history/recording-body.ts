import { applyTo, redoOf, undoOf } from '../account/changes'
import type { ExchangeRecord } from '../operator/exchange-log'
import { recordOf } from '../operator/exchange-log'
import type { StoreSnapshot } from '../store'
import { commitsOf, shared, type Line, type Mark, type Step } from './step'

/**
 * Exchanges of a timeline with what stood before the first: the store then, and before each
 * exchange the controls and the clock; after each change, the store it left (and what it took
 * out of the journal: every exchange after `cut`, 0 for all).
 */
export interface RecordingBody {
  start: { store: StoreSnapshot; mark: Mark }
  steps: Array<{ exchange: ExchangeRecord; mark: Mark } | { store: StoreSnapshot; cut?: number }>
  /** Why the recording ends before the exchange asked for, when it does. */
  stopped?: string
}

/**
 * What replays `steps` of `line` on another account: the store before the first, worked out
 * from `now` (the store where the account stands, on `current`), and each step.
 */
export function recordingBody(
  now: StoreSnapshot,
  current: Line,
  line: Line,
  steps: readonly Step[],
): RecordingBody {
  const common = shared(current.steps, line.steps)
  const first = line.steps.indexOf(steps[0]!)
  // Back from where the account stands to where the two lines part (or the first step, when
  // sooner), then forward along the recorded line to its first step.
  const base = Math.min(common, first)
  let state = applyTo(now, undoOf(commitsOf(current.steps, base)))
  state = applyTo(state, redoOf(commitsOf(line.steps, base, first)))
  const start = steps[0]!.before
  const body: RecordingBody = { start: { store: state, mark: start }, steps: [] }
  for (const step of steps) {
    if (step.kind === 'change') {
      state = applyTo(state, redoOf([step.commits]))
      body.steps.push({ store: state, ...(step.cut ? { cut: step.cut.after } : {}) })
      continue
    }
    if (step.exchange === undefined) continue
    if (!step.entry) {
      body.stopped = `exchange ${step.exchange}'s record was let go to keep the history within its budget`
      break
    }
    body.steps.push({
      exchange: { id: step.entry.id, ...recordOf(step.entry.exchange) },
      mark: step.before,
    })
  }
  return body
}
