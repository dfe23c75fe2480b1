import { InvalidError } from '../errors'
import type { Line } from './step'

/** The most branches an account keeps. */
export const MAX_BRANCHES = 32
const BRANCH_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._:#/-]{0,63}$/u

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

/** `line` as the control plane lists it, `current` being the line the account is on. */
export function branchInfo(line: Line, current: Line): BranchInfo {
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

/** `name` when it can name a branch; a 422 saying what can otherwise. */
export function checkBranchName(name: string): string {
  if (!BRANCH_NAME.test(name)) {
    throw new InvalidError(
      "`name' must be 1 to 64 letters, digits, spaces and . _ : # / -, starting with a letter or a digit",
    )
  }
  return name
}
