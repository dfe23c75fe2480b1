import { useSyncExternalStore } from 'react'
import { messageOf } from '../shared/format'
import { readContract, type CaseView, type OpenedContract } from './contracts'

/**
 * The contract open in the exchange log, and its replay, for the page's life (one per base
 * URL). A file cannot be written into a link, so it lives here rather than in the URL; kept
 * outside the view, it is still there, replay and all, when the view is left and opened again.
 */

/** A replay under way, ended (with `verify`'s report of it), or stopped by an error. */
export type Replay =
  | { state: 'running'; cases: CaseView[] }
  | { state: 'done'; cases: CaseView[]; report: string }
  | { state: 'failed'; cases: CaseView[]; error: string }

export type ContractState =
  | { kind: 'reading'; fileName: string }
  | { kind: 'unreadable'; fileName: string; error: string }
  | { kind: 'open'; contract: OpenedContract; replay?: Replay }

const states = new Map<string, ContractState>()
const listeners = new Set<() => void>()

function set(baseUrl: string, state: ContractState | undefined): void {
  if (state) states.set(baseUrl, state)
  else states.delete(baseUrl)
  for (const listener of listeners) listener()
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The contract open for `baseUrl`, if any. */
export function useContract(baseUrl: string): ContractState | undefined {
  return useSyncExternalStore(subscribe, () => states.get(baseUrl))
}

/** Opens `file` (a contract, or with `service` a HAR made one): reading it, then open or unreadable (with the reason). A later open wins. */
export async function openContract(
  baseUrl: string,
  file: Blob & { name: string },
  service?: { serviceName: string },
) {
  const reading: ContractState = { kind: 'reading', fileName: file.name }
  set(baseUrl, reading)
  let next: ContractState
  try {
    const options = service ? { baseUrl, serviceName: service.serviceName } : undefined
    next = { kind: 'open', contract: await readContract(file, options) }
  } catch (error) {
    next = { kind: 'unreadable', fileName: file.name, error: messageOf(error) }
  }
  if (states.get(baseUrl) === reading) set(baseUrl, next)
}

export const closeContract = (baseUrl: string) => set(baseUrl, undefined)

/**
 * Sets the replay of `contract`, while it is still the one open (a file opened meanwhile
 * takes its place, and the old replay's results go nowhere).
 */
export function setReplay(baseUrl: string, contract: OpenedContract, replay: Replay): void {
  const state = states.get(baseUrl)
  if (state?.kind === 'open' && state.contract === contract) {
    set(baseUrl, { kind: 'open', contract, replay })
  }
}
