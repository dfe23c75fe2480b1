import { ConflictError, InvalidError, ServiceError, UndefinedError } from '../errors'
import type { OperatorTimeline } from '../operator/state'
import { MAX_BRANCHES } from './branches'

/** The history's refusals: what it cannot do, and what to do instead. */

/** A 409 unless the account keeps a history now (controls in this process, the journal on). */
export function requireHistory(
  timeline: OperatorTimeline | undefined,
  keeping: () => boolean,
): void {
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

/** A 422 unless `id` can be an exchange's id. */
export function checkExchangeId(id: number, field: string): void {
  if (!Number.isSafeInteger(id) || id < 1) {
    throw new InvalidError(
      `\`${field}' must be the id of an exchange in the journal: a whole number from 1`,
    )
  }
}

/** Exchange `id` is not in the history: a 410 when older than `first`, the oldest kept, else a 404. */
export function notInHistory(id: number, first: number | null): ServiceError {
  if (first !== null && id < first) {
    return new ServiceError(
      410,
      'gone',
      `exchange ${id} is older than the account's history keeps: the oldest it can go back to before is exchange ${first}`,
    )
  }
  return new UndefinedError(
    first === null
      ? `no exchange ${id} in the account's history: it keeps none yet`
      : `no exchange ${id} in the account's history: it keeps exchanges ${first} on (GET _account/exchanges lists them)`,
  )
}

/** A 403 when the account keeps `count` branches, the most it may. */
export function checkRoomForBranch(count: number): void {
  if (count >= MAX_BRANCHES) {
    throw new ServiceError(
      403,
      'too_many_branches',
      `the account keeps ${MAX_BRANCHES} branches, the most it may: delete one first (POST _account/branches/<id>/delete)`,
    )
  }
}
