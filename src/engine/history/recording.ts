import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type AccountSnapshot } from '../account/snapshot'
import { InvalidError } from '../errors'
import type { ExchangeRecord } from '../operator/exchange-log'
import type { FaultRule } from '../operator/fault-rule'
import { readFaultRule } from '../operator/read-fault-rule'
import type { MarkControls, OperatorMark } from '../operator/state'
import { isObject } from '../runtime/types'
import type { StoreSnapshot } from '../store'
import type { RecordingBody } from './recording-body'
import type { Mark } from './step'

/** Where a mark's rate-limit window is, for the messages that name a bad field. */
const RATE_WINDOW = 'mark.operator.controls.window'

export const RECORDING_FORMAT = 'service-playground/recording'
export const RECORDING_VERSION = 1

/**
 * Exchanges of an account's timeline, with everything that stood before them, to send again
 * on another account of ours (`npx service-playground replay`, decision 086): the account as
 * it stood before the first (its export, secrets and signing key included: keep it private, as
 * an export), then each exchange with the controls and the clock it met, and after each change
 * made between exchanges the account as the change left it.
 */
export interface Recording {
  format: typeof RECORDING_FORMAT
  version: typeof RECORDING_VERSION
  serviceName: string
  baseUrl: string
  seed: string | null
  /** The account's body limit: a request it refused as too large is sent one byte past it. */
  maxBodyBytes: number
  start: { account: AccountSnapshot; mark: Mark }
  steps: RecordingStep[]
  /** Why it ends before the exchange asked for, when it does. */
  stopped?: string
}

export type RecordingStep =
  | { exchange: ExchangeRecord; mark: Mark }
  /** The account as a change left it, and what it took out of the journal (after `cut`). */
  | { account: AccountSnapshot; cut?: number }

/** A recording of what the history gave. */
export function recordingOf(
  body: RecordingBody,
  {
    serviceName,
    baseUrl,
    seed,
    maxBodyBytes,
  }: { serviceName: string; baseUrl: string; seed: string | null; maxBodyBytes: number },
): Recording {
  const account = (store: StoreSnapshot, at: number): AccountSnapshot => ({
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    serviceName,
    exportedAt: at / 1000,
    ...store,
  })
  let at = body.start.mark.clock.at
  const steps: RecordingStep[] = body.steps.map((step) => {
    if ('exchange' in step) {
      at = step.mark.clock.at
      return step
    }
    return {
      account: account(step.store, at),
      ...(step.cut !== undefined ? { cut: step.cut } : {}),
    }
  })
  return {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    serviceName,
    baseUrl,
    seed,
    maxBodyBytes,
    start: { account: account(body.start.store, body.start.mark.clock.at), mark: body.start.mark },
    steps,
    ...(body.stopped ? { stopped: body.stopped } : {}),
  }
}

class Bad extends InvalidError {
  constructor(path: string, problem: string) {
    super(`invalid state: ${path} ${problem}`)
  }
}

const whole = (value: unknown, path: string, min = 0, max = Number.MAX_SAFE_INTEGER): number => {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new Bad(path, `must be a whole number from ${min} to ${max}`)
  }
  return value
}

const finite = (value: unknown, path: string): number => {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new Bad(path, 'must be a number')
  }
  return value
}

/**
 * A mark as a recording carries it (`POST _account/replay/state`), checked field by field as
 * the control plane checks what it sets: the same bounds, the same fault rules.
 */
export function readMark(value: unknown, maxJournal: number): Mark {
  if (!isObject(value)) throw new Bad('mark', 'must be an object with operator and clock')
  const { operator, clock } = value as Record<string, unknown>
  if (!isObject(clock)) throw new Bad('mark.clock', 'must be an object with offset and at')
  if (!isObject(operator)) throw new Bad('mark.operator', 'must be an object')
  const counted = operator as Record<string, unknown>
  if (!isObject(counted.controls)) throw new Bad('mark.operator.controls', 'must be an object')
  const o = counted.controls as Record<string, unknown>
  const rate = o.rateLimit
  if (!isObject(rate)) throw new Bad('mark.operator.controls.rateLimit', 'must be an object')
  const r = rate as Record<string, unknown>
  if (typeof r.enforce !== 'boolean')
    throw new Bad('mark.operator.controls.rateLimit.enforce', 'must be a boolean')
  const window = o.window
  if (!isObject(window)) throw new Bad('mark.operator.controls.window', 'must be an object')
  const w = window as Record<string, unknown>
  if (typeof o.strict !== 'boolean')
    throw new Bad('mark.operator.controls.strict', 'must be a boolean')
  if (!Array.isArray(o.faults) || o.faults.length > 100) {
    throw new Bad('mark.operator.controls.faults', 'must be an array of at most 100 fault rules')
  }
  const faults = o.faults.map((given, i): FaultRule => {
    if (!isObject(given))
      throw new Bad(`mark.operator.controls.faults[${i}]`, 'must be a fault rule')
    const { id, ...rule } = given as Record<string, unknown>
    if (typeof id !== 'string' || !/^flt_[A-Za-z0-9_-]{1,64}$/.test(id)) {
      throw new Bad(`mark.operator.controls.faults[${i}].id`, 'must be a fault id (flt_…)')
    }
    return { id, ...readFaultRule(rule) }
  })
  const controls: MarkControls = {
    strict: o.strict,
    journal: whole(o.journal, 'mark.operator.controls.journal', 1, maxJournal),
    rateLimit: {
      enforce: r.enforce,
      limit: whole(r.limit, 'mark.operator.controls.rateLimit.limit', 1),
      windowSeconds: finite(r.windowSeconds, 'mark.operator.controls.rateLimit.windowSeconds'),
    },
    window: {
      // No window yet: its start is -Infinity, which JSON writes as null.
      start: w.start === null ? Number.NEGATIVE_INFINITY : finite(w.start, `${RATE_WINDOW}.start`),
      count: whole(w.count, `${RATE_WINDOW}.count`),
    },
    faults,
    faultsAdded: whole(o.faultsAdded, 'mark.operator.controls.faultsAdded'),
  }
  const mark: OperatorMark = {
    controls,
    steps: whole(counted.steps, 'mark.operator.steps'),
    reportTotal: whole(counted.reportTotal, 'mark.operator.reportTotal'),
  }
  const c = clock as Record<string, unknown>
  return {
    operator: mark,
    clock: { offset: finite(c.offset, 'mark.clock.offset'), at: finite(c.at, 'mark.clock.at') },
  }
}
