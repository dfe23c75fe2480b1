import type { AccountClock } from '../clock'
import { ConflictError, InvalidError, ServiceError, UndefinedError } from '../errors'
import { MAX_JOURNAL_BYTES, type JournalEntry } from '../operator/exchange-log'
import type { OperatorMark, OperatorState } from '../operator/state'
import type { Mutation, Store, StoreReader, StoreSnapshot } from '../store'
import { update } from '../account/update'
import { recordOf, type ExchangeRecord } from '../operator/exchange-log'
import type { Call } from '../wire/call'
import { applyTo, recordCommit, redoOf, undoOf, type CommitRecord } from '../account/changes'
import { callOfRecord, compareExchanges, unsendable, type Difference } from './compare'
import { createGate, type Gate } from './gate'

/** The most steps one branch of an account's history keeps: any of its last 10,000 exchanges. */
export const MAX_HISTORY_STEPS = 10_000
/** What the whole history may hold, across branches, in bytes: the journal's own budget. */
export const MAX_HISTORY_BYTES = MAX_JOURNAL_BYTES
/** The most branches an account keeps. */
export const MAX_BRANCHES = 32
const BRANCH_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._:#/-]{0,63}$/u

/** The commits of a step that made none: one list for them all, never written to. */
const NONE: CommitRecord[] = []

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
interface Line {
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

/** A branch as the control plane lists it. */
export interface BranchInfo {
  id: string
  name: string
  current: boolean
  createdAt: number
  /** The branch it was made from, and the exchange it went back to before. */
  from: { branch: string; before: number } | null
  /** Exchanges on its timeline, from the oldest the history keeps. */
  exchanges: number
  /** Its newest exchange's id, or `null` for none. */
  last: number | null
}

/** The branches, which one the account is on, and how far back it can go. */
export interface BranchList {
  current: string
  branches: BranchInfo[]
  /** The oldest exchange a rewind can go back to before; `null` when none is kept. */
  oldest: number | null
}

export interface History {
  readonly gate: Gate
  /** The store the account and its checkpoints write through: their commits are recorded. */
  readonly store: Store
  /** Whether it keeps steps now (the journal is on). */
  keeping(): boolean
  /** A step for an exchange that begins now, while the history keeps steps. */
  beginExchange(): Step | undefined
  /** The exchange's journal entry, once answered. */
  finishExchange(step: Step): void
  /** What an exchange's commit changes, read in the commit's own atomic step. */
  record(reader: StoreReader, mutations: readonly Mutation[]): Promise<CommitRecord>
  /** Keeps what an exchange's commit changed, once it is committed. */
  committed(step: Step, commit: CommitRecord): void
  list(): BranchList
  /** Back to just before exchange `id`, on a new branch; answers it. */
  rewind(id: number, name?: string): Promise<BranchInfo>
  /** Onto branch `id`, as it was left. */
  switchTo(id: string): Promise<BranchInfo>
  rename(id: string, name: string): BranchInfo
  remove(id: string): void
  /** The steps of branch `id` (the current one by default), oldest first. */
  steps(id?: string): readonly Step[]
  /** Every exchange on branch `id`'s timeline after where it and `other` part. */
  parting(a: string, b: string): { fork: number; a: readonly Step[]; b: readonly Step[] }
  /** How far back it keeps: the oldest exchange a rewind reaches. */
  oldest(): number | null
  /**
   * Sends exchanges `from`..`to` of their branch (`to`: its last by default) again, on a new
   * branch made just before `from`, each with the controls and clock it met, and compares each
   * answer with the journal's (`compareExchanges`); stops at the first that differs.
   */
  replay(
    from: number,
    to: number | undefined,
    run: (call: Call) => Promise<unknown>,
  ): Promise<ReplayReport>
  /** Exchanges `from`..`to` with what stood before `from`: to replay them on another account. */
  recording(from: number, to: number | undefined): Promise<RecordingBody>
  /**
   * Puts the controls and the clock as `mark` has them (a recording's step, replayed here); the
   * caller holds the gate alone.
   */
  place(mark: Mark): Promise<void>
}

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

export interface HistoryParts {
  store: Store
  operator: OperatorState
  clock: AccountClock
  /** Has the account take up the store as a move left it, its clock standing at `at`. */
  resync(at: number): Promise<void>
  /** The account's body limit: what a replayed 413 is sent one byte past. */
  maxBodyBytes: number
}

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
  let lines: Line[] = [newLine('main', 'main', Math.floor(clock.now() / 1000), null, [])]
  let current = lines[0]!
  /** The change being made between two exchanges, until the next exchange begins. */
  let open: Step | undefined
  let bytes = 0
  let was = false

  function newLine(
    id: string,
    name: string,
    createdAt: number,
    from: Line['from'],
    steps: Step[],
  ): Line {
    return { id, name, createdAt, from, steps }
  }

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
    byExchange.clear()
    lines = [newLine(current.id, current.name, current.createdAt, current.from, [])]
    current = lines[0]!
    open = undefined
    bytes = 0
  }

  function append(step: Step): void {
    current.steps.push(step)
    bytes += step.bytes
    enforce()
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
    bytes += commit.bytes
    enforce()
  }

  timeline?.onJournalCut((after) => {
    if (!keeping()) return
    const step = openChange()
    step.cut = { after: Math.min(step.cut?.after ?? Infinity, after) }
  })

  /** Steps holding an exchange's record, oldest first, from `strip` on: the first to let go. */
  let held: Step[] = []
  let strip = 0

  /**
   * Lets go of what passes the budget: first old exchanges' records (their steps stay
   * reachable, though no longer replayable), then old steps, in batches so that a full history
   * costs no more per exchange than a young one.
   */
  function enforce(): void {
    while (bytes > MAX_HISTORY_BYTES && strip < held.length) {
      const step = held[strip++]!
      if (step.entry && !step.gone) {
        bytes -= step.entry.size
        step.entry = undefined
      }
    }
    if (strip > 1024) {
      held = held.slice(strip)
      strip = 0
    }
    const over = current.steps.length - MAX_HISTORY_STEPS
    if (over > 1024) dropOldest(over)
    while (bytes > MAX_HISTORY_BYTES && current.steps.length > 1) {
      dropOldest(Math.max(1, Math.min(1024, current.steps.length >> 4)))
    }
  }

  /** The oldest `count` steps go; a branch that left the timeline among them goes with them. */
  function dropOldest(count: number): void {
    const last = current.steps[count - 1]!
    lines = lines.filter((line) => line === current || line.steps[count - 1] === last)
    const gone = current.steps.slice(0, count)
    for (const line of lines) line.steps.splice(0, count)
    for (const step of gone) forget(step)
  }

  /** A step no branch holds any longer: its bytes given back, its exchange no longer found. */
  function forget(step: Step): void {
    bytes -= step.bytes + (step.entry?.size ?? 0)
    if (step.exchange !== undefined) byExchange.delete(step.exchange)
    step.gone = true
  }

  const stepsOf = (id?: string) => (id === undefined ? current : lineOf(id)).steps

  function lineOf(id: string): Line {
    const line = lines.find((l) => l.id === id)
    if (!line) {
      throw new UndefinedError(
        `no branch \`${id}': GET _account/branches lists the ${lines.length} the account keeps`,
      )
    }
    return line
  }

  /** The oldest exchange any branch keeps. */
  function oldest(): number | null {
    let found: number | null = null
    for (const line of lines) {
      const first = line.steps.find((step) => step.exchange !== undefined)?.exchange
      if (first !== undefined && (found === null || first < found)) found = first
    }
    return found
  }

  function info(line: Line): BranchInfo {
    let exchanges = 0
    let last: number | null = null
    for (const step of line.steps) {
      if (step.exchange === undefined) continue
      exchanges++
      last = step.exchange
    }
    return {
      id: line.id,
      name: line.name,
      current: line === current,
      createdAt: line.createdAt,
      from: line.from,
      exchanges,
      last,
    }
  }

  /** How many first steps two lines share. */
  function shared(a: readonly Step[], b: readonly Step[]): number {
    let i = 0
    while (i < a.length && i < b.length && a[i] === b[i]) i++
    return i
  }

  /**
   * The journal as it stood after the first `count` steps of `steps`: their exchanges, newest
   * last, less those a later change took out, back to the last change that emptied it.
   */
  function journalAt(steps: readonly Step[], count: number, capacity: number): JournalEntry[] {
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
    current.head = { mark: markNow(true), journal: timeline!.journalEntries() }
  }

  /** Each step's commits, from `from` to `to`, as lists (none copied). */
  function commitsOf(steps: readonly Step[], from = 0, to = steps.length): CommitRecord[][] {
    const lists: CommitRecord[][] = []
    for (let i = from; i < to; i++) lists.push(steps[i]!.commits)
    return lists
  }

  /** Each exchange's step, by its id, while the history keeps it. */
  const byExchange = new Map<number, Step>()

  /** Where `step` stands on `line` (its steps are in the order they began), or -1. */
  function indexOn(line: Line, step: Step): number {
    let low = 0
    let high = line.steps.length
    while (low < high) {
      const middle = (low + high) >> 1
      if (line.steps[middle]!.seq < step.seq) low = middle + 1
      else high = middle
    }
    return line.steps[low] === step ? low : -1
  }

  function findExchange(id: number): { line: Line; index: number } | undefined {
    const step = byExchange.get(id)
    if (!step) return undefined
    for (const line of [current, ...lines.filter((l) => l !== current)]) {
      const index = indexOn(line, step)
      if (index >= 0) return { line, index }
    }
    return undefined
  }

  function checkName(name: string): string {
    if (!BRANCH_NAME.test(name)) {
      throw new InvalidError(
        "`name' must be 1 to 64 letters, digits, spaces and . _ : # / -, starting with a letter or a digit",
      )
    }
    return name
  }

  function requireHistory(): void {
    if (!timeline) {
      throw new ConflictError(
        'this account keeps no history: its controls are shared by several processes (PostgreSQL); take checkpoints instead (POST _account/checkpoint)',
      )
    }
    if (!keeping()) {
      throw new ConflictError(
        'this account keeps no history while its journal is off: turn it on (POST _account/exchanges {"capacity": 1000}) and the exchanges from then on can be gone back to',
      )
    }
  }

  async function switchLine(target: Line): Promise<void> {
    const from = current.steps
    const to = target.steps
    const common = shared(from, to)
    const head = target.head
    if (!head) throw new Error(`branch ${target.id} was never left, yet is not the current one`)
    leave()
    const mutations = [...undoOf(commitsOf(from, common)), ...redoOf(commitsOf(to, common))]
    current = target
    await move(mutations, head.mark, head.journal)
  }

  const recorded = recordingStore(store, keeping, (commit) => addCommit(openChange(), commit))

  function checkId(id: number, field: string): void {
    if (!Number.isSafeInteger(id) || id < 1) {
      throw new InvalidError(
        `\`${field}' must be the id of an exchange in the journal: a whole number from 1`,
      )
    }
  }

  /** Where exchange `id` is, or a 404 (never kept) or 410 (older than kept) saying so. */
  function locate(id: number): { line: Line; index: number } {
    const found = findExchange(id)
    if (found) return found
    const first = oldest()
    if (first !== null && id < first) {
      throw new ServiceError(
        410,
        'gone',
        `exchange ${id} is older than the account's history keeps: the oldest it can go back to before is exchange ${first}`,
      )
    }
    throw new UndefinedError(
      first === null
        ? `no exchange ${id} in the account's history: it keeps none yet`
        : `no exchange ${id} in the account's history: it keeps exchanges ${first} on (GET _account/exchanges lists them)`,
    )
  }

  /** Back to just before exchange `id`, on a new branch made there (inside the gate). */
  async function rewindInside(id: number, name?: string): Promise<Line> {
    requireHistory()
    const found = locate(id)
    if (lines.length >= MAX_BRANCHES) {
      throw new ServiceError(
        403,
        'too_many_branches',
        `the account keeps ${MAX_BRANCHES} branches, the most it may: delete one first (POST _account/branches/<id>/delete)`,
      )
    }
    if (found.line !== current) await switchLine(found.line)
    const from = current
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
    lines.push(made)
    current = made
    await move(mutations, target.before, journalBefore(from.steps, index))
    return made
  }

  /**
   * The journal as it stood before step `index` of `steps`: the journal now, less what came
   * from that step on, unless a change since took exchanges out of it (then rebuilt from the
   * steps kept).
   */
  function journalBefore(steps: readonly Step[], index: number): JournalEntry[] {
    let first = Infinity
    for (let i = index; i < steps.length; i++) {
      const step = steps[i]!
      if (step.cut) return journalAt(steps, index, steps[index]!.before.operator.controls.journal)
      if (step.exchange !== undefined && step.exchange < first) first = step.exchange
    }
    const entries = timeline!.journalEntries()
    let low = 0
    let high = entries.length
    while (low < high) {
      const middle = (low + high) >> 1
      if (entries[middle]!.id < first) low = middle + 1
      else high = middle
    }
    return entries.slice(0, low)
  }

  /** The exchanges `from`..`to` of one line, and the steps between them. */
  function span(from: number, to: number | undefined): { line: Line; steps: Step[] } {
    const start = locate(from)
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

  async function replayInside(
    from: number,
    to: number | undefined,
    run: (call: Call) => Promise<unknown>,
  ): Promise<ReplayReport> {
    requireHistory()
    const { line, steps } = span(from, to)
    const made = await rewindInside(from, `replay of #${from}`)
    const report: ReplayReport = { branch: made.id, of: line.id, exchanges: 0, identical: 0 }
    /** Old exchange ids to the ids their replays got: what a journal cut names. */
    const ids = new Map<number, number>()
    for (const step of steps) {
      if (step.kind === 'change') {
        const redo = redoOf([step.commits])
        if (redo.length > 0) await recorded.commit(redo)
        await resync(clock.now())
        if (step.cut) cutJournal(step.cut.after, ids)
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
      await move([], step.before, undefined)
      await run(callOfRecord(expected, maxBodyBytes))
      const answered = timeline!.lastJournalEntry()
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

  function cutJournal(after: number, ids: Map<number, number>): void {
    if (after === 0) return void operator.journal.clear()
    let mapped = 0
    for (const [old, made] of ids) if (old <= after) mapped = Math.max(mapped, made)
    timeline!.dropJournalAfter(mapped)
  }

  /** What replays exchanges `from`..`to` on another account: their start, and each step. */
  async function recordingOf(from: number, to: number | undefined): Promise<RecordingBody> {
    requireHistory()
    const { line, steps } = span(from, to)
    const common = shared(current.steps, line.steps)
    const first = line.steps.indexOf(steps[0]!)
    // Back from where the account stands to where the two lines part (or the first step, when
    // sooner), then forward along the recorded line to its first step.
    const base = Math.min(common, first)
    let state = applyTo(await store.snapshot(), undoOf(commitsOf(current.steps, base)))
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
      byExchange.set(entry.id, step)
      held.push(step)
      bytes += entry.size
      enforce()
    },
    record: recordCommit,
    committed: addCommit,
    list: () => ({ current: current.id, branches: lines.map(info), oldest: oldest() }),
    steps: (id) => stepsOf(id),
    oldest,
    parting(a, b) {
      const left = lineOf(a).steps
      const right = lineOf(b).steps
      const fork = shared(left, right)
      return { fork, a: left.slice(fork), b: right.slice(fork) }
    },
    rename(id, name) {
      lineOf(id).name = checkName(name)
      return info(lineOf(id))
    },
    remove(id) {
      const line = lineOf(id)
      if (line === current) {
        throw new ConflictError(
          `branch \`${id}' is the one the account is on: switch to another first (POST _account/branches/<id>/switch)`,
        )
      }
      // Its own steps: those after where it parts from every other branch.
      let kept = 0
      for (const other of lines)
        if (other !== line) kept = Math.max(kept, shared(line.steps, other.steps))
      lines = lines.filter((l) => l !== line)
      for (const step of line.steps.slice(kept)) forget(step)
    },
    rewind(id, name) {
      checkId(id, 'before')
      if (name !== undefined) checkName(name)
      return gate.exclusive(async () => info(await rewindInside(id, name)))
    },
    replay(from, to, run) {
      checkId(from, 'from')
      if (to !== undefined) checkId(to, 'to')
      return gate.exclusive(() => replayInside(from, to, run))
    },
    recording: (from, to) => gate.exclusive(async () => recordingOf(from, to)),
    place: (mark) => move([], mark, undefined),
    switchTo(id) {
      return gate.exclusive(async () => {
        requireHistory()
        const target = lineOf(id)
        if (target !== current) await switchLine(target)
        return info(target)
      })
    },
  }
}

/**
 * `store`, each commit (and update) recorded as a change between exchanges while the history
 * keeps steps: read in the commit's own atomic step, kept once it is committed.
 */
function recordingStore(
  store: Store,
  keeping: () => boolean,
  committed: (commit: CommitRecord) => void,
): Store {
  const recorded = async (plan: (reader: StoreReader) => Promise<readonly Mutation[]>) => {
    let commit: CommitRecord | undefined
    await update(store, async (reader) => {
      const mutations = await plan(reader)
      commit = mutations.length > 0 ? await recordCommit(reader, mutations) : undefined
      return mutations
    })
    if (commit) committed(commit)
  }
  return {
    getMeta: (key) => store.getMeta(key),
    getSecret: (id) => store.getSecret(id),
    listSecrets: () => store.listSecrets(),
    getKey: (bucket, key) => store.getKey(bucket, key),
    scanKeys: (bucket, options) => store.scanKeys(bucket, options),
    listBuckets: () => store.listBuckets(),
    getProc: (name) => store.getProc(name),
    listProcs: () => store.listProcs(),
    snapshot: () => store.snapshot(),
    close: () => store.close(),
    commit: (mutations) => (keeping() ? recorded(async () => mutations) : store.commit(mutations)),
    update: (plan) => (keeping() ? recorded(plan) : update(store, plan)),
  }
}
