import { createHmac } from 'node:crypto'
import { unit } from '../../engine/auth/random'
import type { ChaosKind, ChaosSettings } from './options'

/**
 * One faulted exchange: the `nth` call (from 1) to `endpoint` in one run of one test, and what
 * it met. `status` for a `status` fault, `retryAfter` for a `throttle`, `delayMs` for a
 * `delay`.
 */
export interface ChaosFault {
  endpoint: string
  nth: number
  kind: ChaosKind
  status?: number
  retryAfter?: number
  delayMs?: number
}

/** The statuses a `status` fault draws from: the fault table's, but 429 (that is `throttle`). */
export const CHAOS_STATUSES = [408, 500, 502, 503, 504] as const

/** The real milliseconds a `hang` lasts before its connection drops: the bound a hang is cut at. */
export const HANG_BOUND_MS = 250

/** The longest `delay` drawn, in real milliseconds. */
export const MAX_CHAOS_DELAY_MS = 40

const LABEL = 'service-playground/chaos\u0000'

/**
 * The addresser of one run: whether the `nth` call to `endpoint` in `test` meets a fault, and
 * which, is HMAC-SHA-256 keyed by the seed and the run, of the test, the endpoint and `nth`.
 * Nothing else is drawn, so one fault never moves another and a run replays from its seed.
 */
export function addresser(
  settings: Pick<ChaosSettings, 'seed' | 'kinds' | 'rate'>,
  run: number,
  test: string,
) {
  const key = `${LABEL}${settings.seed}\u0000${run}`
  return (endpoint: string, nth: number): ChaosFault | undefined => {
    const bytes = createHmac('sha256', key).update(`${test}\u0000${endpoint}\u0000${nth}`).digest()
    if (unit(bytes.subarray(0, 4)) >= settings.rate) return undefined
    const kind = settings.kinds[bytes[4]! % settings.kinds.length]!
    const fault: ChaosFault = { endpoint, nth, kind }
    if (kind === 'status') fault.status = CHAOS_STATUSES[bytes[5]! % CHAOS_STATUSES.length]
    if (kind === 'throttle') fault.retryAfter = 1 + (bytes[6]! % 3)
    if (kind === 'delay') fault.delayMs = 1 + (((bytes[7]! << 8) | bytes[8]!) % MAX_CHAOS_DELAY_MS)
    return fault
  }
}

/** A fault as the repro writes it: `keyv.get#2:throttle/2`, `core.echo#1:status/503`. */
export function faultText(fault: ChaosFault): string {
  const detail = fault.status ?? fault.retryAfter ?? fault.delayMs
  return `${fault.endpoint}#${fault.nth}:${fault.kind}${detail === undefined ? '' : `/${detail}`}`
}

/** Reads a fault `faultText` wrote, or says what is wrong with it. */
export function readFaultText(text: string, kinds: readonly string[]): ChaosFault {
  const match = /^([A-Za-z0-9_.-]+)#([1-9][0-9]*):([a-z]+)(?:\/([0-9]+))?$/.exec(text.trim())
  if (!match || !kinds.includes(match[3]!)) {
    throw new Error(
      `a chaos fault reads <endpoint>#<nth call>:<kind>[/<status, retry-after or delay>], such as keyv.get#2:throttle/1; not ${JSON.stringify(text)}`,
    )
  }
  const fault: ChaosFault = {
    endpoint: match[1]!,
    nth: Number(match[2]),
    kind: match[3] as ChaosKind,
  }
  const detail = match[4] === undefined ? undefined : Number(match[4])
  if (fault.kind === 'status') {
    if (!(CHAOS_STATUSES as readonly number[]).includes(detail ?? 0)) {
      throw new Error(`a status fault names its status (${CHAOS_STATUSES.join(', ')}): ${text}`)
    }
    fault.status = detail
  }
  if (fault.kind === 'throttle') fault.retryAfter = detail ?? 1
  if (fault.kind === 'delay') fault.delayMs = Math.min(detail ?? 1, 30_000) || 1
  return fault
}
