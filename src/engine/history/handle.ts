import type { CommitRecord } from '../account/changes'
import type { AccountClock } from '../clock'
import type { OperatorState } from '../operator/state'
import type { Mutation, Store, StoreReader } from '../store'
import type { Call } from '../wire/call'
import type { BranchInfo, BranchList } from './branches'
import type { Gate } from './gate'
import type { RecordingBody } from './recording-body'
import type { ReplayReport } from './replay'
import type { Mark, Step } from './step'

/** An account's history as the engine and the control plane hold it (decision 086). */
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

export interface HistoryParts {
  store: Store
  operator: OperatorState
  clock: AccountClock
  /** Has the account take up the store as a move left it, its clock standing at `at`. */
  resync(at: number): Promise<void>
  /** The account's body limit: what a replayed 413 is sent one byte past. */
  maxBodyBytes: number
}
