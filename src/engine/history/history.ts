import { ConflictError } from '../errors'
import type { JournalEntry } from '../operator/exchange-log'
import type { Mutation } from '../store'
import type { Call } from '../wire/call'
import { recordCommit, redoOf, undoOf, type CommitRecord } from '../account/changes'
import { enforce, forget, type Kept } from './budget'
import { branchInfo, checkBranchName } from './branches'
import { lineOf as findLine, locate, oldestExchange, spanFrom } from './find'
import type { History, HistoryParts } from './handle'
import { createGate } from './gate'
import { journalBefore } from './journal-at'
import { recordingBody, type RecordingBody } from './recording-body'
import { recordingStore } from './recording-store'
import { checkExchangeId, checkRoomForBranch, requireHistory } from './refusals'
import { replaySteps, type ReplayReport } from './replay'
import { commitsOf, newLine, NONE, shared, type Line, type Mark, type Step } from './step'

export { MAX_BRANCHES, type BranchInfo, type BranchList } from './branches'
export type { RecordingBody } from './recording-body'
export type { ReplayReport } from './replay'
export type { Mark, Step } from './step'
export type { History, HistoryParts } from './handle'

export { MAX_HISTORY_BYTES, MAX_HISTORY_STEPS } from './budget'

/**
 * The account's history (decision 086): every step of its timeline with the undo record of
 * what it wrote (the before-image of each slot it touched) and the controls and clock before
 * it, so that `rewind` takes the account back to just before any exchange it keeps, applying
 * the undo records of what came after in one commit — as many writes as slots they touched,
 * never the account's size — and opening a branch there. The old timeline stays as its own
 * branch, to come back to (its steps redone from their after-images). Kept while the journal
 * is on, and only where the operator's controls live in this process.
 */
export function createHistory({
  store,
  operator,
  clock,
  resync,
  maxBodyBytes,
}: HistoryParts): History {
  const timeline = operator.timeline
  const gate = createGate()
  let seq = 0
  let branchCount = 1
  const main = newLine('main', 'main', Math.floor(clock.now() / 1000), null, [])
  const kept: Kept = {
    lines: [main],
    current: main,
    bytes: 0,
    held: [],
    strip: 0,
    byExchange: new Map(),
  }
  /** The change being made between two exchanges, until the next exchange begins. */
  let open: Step | undefined
  let was = false

  /** The clock as the last mark had it: shared by the marks after it while it stands. */
  let lastClock = { offset: Number.NaN, at: Number.NaN }
  function markNow(withReport = false): Mark {
    const offset = clock.offset
    const at = clock.now()
    if (lastClock.offset !== offset || lastClock.at !== at) lastClock = { offset, at }
    return { operator: timeline!.mark(withReport), clock: lastClock }
  }

  /** Whether steps are kept now; a history turned off forgets everything it kept. */
  function keeping(): boolean {
    if (!timeline) return false
    const on = timeline.journalCapacity() > 0
    if (was && !on) forgetAll()
    was = on
    return on
  }

  function forgetAll(): void {
    kept.byExchange.clear()
    kept.lines = [
      newLine(kept.current.id, kept.current.name, kept.current.createdAt, kept.current.from, []),
    ]
    kept.current = kept.lines[0]!
    open = undefined
    kept.bytes = 0
  }

  function append(step: Step): void {
    kept.current.steps.push(step)
    kept.bytes += step.bytes
    enforce(kept)
  }

  function openChange(): Step {
    if (open) return open
    open = { seq: ++seq, kind: 'change', before: markNow(), commits: [], bytes: 96 }
    append(open)
    return open
  }

  const addCommit = (step: Step, commit: CommitRecord) => {
    if (step.commits === NONE) step.commits = []
    step.commits.push(commit)
    step.bytes += commit.bytes
    kept.bytes += commit.bytes
    enforce(kept)
  }

  timeline?.onJournalCut((after) => {
    if (!keeping()) return
    const step = openChange()
    step.cut = { after: Math.min(step.cut?.after ?? Infinity, after) }
  })

  const stepsOf = (id?: string) => (id === undefined ? kept.current : lineOf(id)).steps

  const lineOf = (id: string) => findLine(kept, id)
  const oldest = () => oldestExchange(kept)

  /** Puts the store, the controls and the clock where a move leads. */
  async function move(
    mutations: Mutation[],
    mark: Mark,
    journal: JournalEntry[] | undefined,
  ): Promise<void> {
    if (mutations.length > 0) await store.commit(mutations)
    timeline!.goTo(mark.operator, journal)
    clock.advance(mark.clock.offset - clock.offset)
    await resync(mark.clock.at)
  }

  /** Leaves the current line as it stands, to come back to. */
  function leave(): void {
    open = undefined
    kept.current.head = { mark: markNow(true), journal: timeline!.journalEntries() }
  }

  const required = () => requireHistory(timeline, keeping)

  async function switchLine(target: Line): Promise<void> {
    const from = kept.current.steps
    const to = target.steps
    const common = shared(from, to)
    const head = target.head
    if (!head) throw new Error(`branch ${target.id} was never left, yet is not the current one`)
    leave()
    const mutations = [...undoOf(commitsOf(from, common)), ...redoOf(commitsOf(to, common))]
    kept.current = target
    await move(mutations, head.mark, head.journal)
  }

  const recorded = recordingStore(store, keeping, (commit) => addCommit(openChange(), commit))

  /** Back to just before exchange `id`, on a new branch made there (inside the gate). */
  async function rewindInside(id: number, name?: string): Promise<Line> {
    required()
    const found = locate(kept, id)
    checkRoomForBranch(kept.lines.length)
    if (found.line !== kept.current) await switchLine(found.line)
    const from = kept.current
    const index = found.index
    const target = from.steps[index]!
    leave()
    const mutations = undoOf(commitsOf(from.steps, index))
    const made = newLine(
      `b${++branchCount}`,
      name ?? `before #${id}`,
      Math.floor(target.before.clock.at / 1000),
      { branch: from.id, before: id },
      from.steps.slice(0, index),
    )
    kept.lines.push(made)
    kept.current = made
    await move(
      mutations,
      target.before,
      journalBefore(from.steps, index, () => timeline!.journalEntries()),
    )
    return made
  }

  /** The exchanges `from`..`to` of one line, and the steps between them. */
  const span = (from: number, to: number | undefined) => spanFrom(locate(kept, from), from, to)

  async function replayInside(
    from: number,
    to: number | undefined,
    run: (call: Call) => Promise<unknown>,
  ): Promise<ReplayReport> {
    required()
    const { line, steps } = span(from, to)
    const made = await rewindInside(from, `replay of #${from}`)
    const report: ReplayReport = { branch: made.id, of: line.id, exchanges: 0, identical: 0 }
    return replaySteps(steps, report, run, {
      recorded,
      operator,
      now: () => clock.now(),
      resync,
      move,
      maxBodyBytes,
    })
  }

  /** What replays exchanges `from`..`to` on another account: their start, and each step. */
  async function recordingOf(from: number, to: number | undefined): Promise<RecordingBody> {
    required()
    const { line, steps } = span(from, to)
    return recordingBody(await store.snapshot(), kept.current, line, steps)
  }

  return {
    gate,
    store: recorded,
    keeping,
    beginExchange() {
      if (!keeping()) return undefined
      open = undefined
      const step: Step = {
        seq: ++seq,
        kind: 'exchange',
        before: markNow(),
        commits: [],
        bytes: 256,
      }
      append(step)
      return step
    },
    finishExchange(step) {
      const entry = timeline?.lastJournalEntry()
      if (!entry || step.exchange !== undefined) return
      step.exchange = entry.id
      step.entry = entry
      kept.byExchange.set(entry.id, step)
      kept.held.push(step)
      kept.bytes += entry.size
      enforce(kept)
    },
    record: recordCommit,
    committed: addCommit,
    list: () => ({
      current: kept.current.id,
      branches: kept.lines.map((line) => branchInfo(line, kept.current)),
      oldest: oldest(),
    }),
    steps: (id) => stepsOf(id),
    oldest,
    parting(a, b) {
      const left = lineOf(a).steps
      const right = lineOf(b).steps
      const fork = shared(left, right)
      return { fork, a: left.slice(fork), b: right.slice(fork) }
    },
    rename(id, name) {
      lineOf(id).name = checkBranchName(name)
      return branchInfo(lineOf(id), kept.current)
    },
    remove(id) {
      const line = lineOf(id)
      if (line === kept.current) {
        throw new ConflictError(
          `branch \`${id}' is the one the account is on: switch to another first (POST _account/branches/<id>/switch)`,
        )
      }
      // Its own steps: those after where it parts from every other branch.
      let own = 0
      for (const other of kept.lines)
        if (other !== line) own = Math.max(own, shared(line.steps, other.steps))
      kept.lines = kept.lines.filter((l) => l !== line)
      for (const step of line.steps.slice(own)) forget(kept, step)
    },
    rewind(id, name) {
      checkExchangeId(id, 'before')
      if (name !== undefined) checkBranchName(name)
      return gate.exclusive(async () => branchInfo(await rewindInside(id, name), kept.current))
    },
    replay(from, to, run) {
      checkExchangeId(from, 'from')
      if (to !== undefined) checkExchangeId(to, 'to')
      return gate.exclusive(() => replayInside(from, to, run))
    },
    recording: (from, to) => gate.exclusive(async () => recordingOf(from, to)),
    place: (mark) => move([], mark, undefined),
    switchTo(id) {
      return gate.exclusive(async () => {
        required()
        const target = lineOf(id)
        if (target !== kept.current) await switchLine(target)
        return branchInfo(target, kept.current)
      })
    },
  }
}
