import { InvalidError, ServiceError } from '../errors'

/** What a client's error handling can be tested against. */
export interface FaultRule {
  /** The status to answer: 429 (with `retry-after`), 408 or 500; or 0 to only delay. */
  status: 0 | 408 | 429 | 500
  /** How many calls it takes before it is used up. */
  count: number
  /** Only calls to this endpoint (dotted name); every endpoint when absent. */
  endpoint?: string
  /** Wait this long before answering (the fault's answer, or the real one for status 0). */
  delayMs: number
  /** The `retry-after` seconds of a 429. */
  retryAfter: number
}

/** A fault the engine answers with in place of the call's own answer. */
export class InjectedFault extends ServiceError {
  constructor(status: 408 | 429 | 500, headers: Record<string, string>) {
    const words = { 408: 'timeout', 429: 'rate limited', 500: 'internal error' }[status]
    super(status, 'injected_fault', `${words} (a fault injected through the control plane)`, {
      ...headers,
      'x-fault': String(status),
    })
  }
}

const STATUSES = [0, 408, 429, 500]

/** Reads a rule from a control-plane body, saying what is wrong with it. */
export function readFaultRule(body: Record<string, unknown>): FaultRule {
  const { status, count = 1, endpoint, delayMs = 0, retryAfter = 1 } = body
  if (typeof status !== 'number' || !STATUSES.includes(status)) {
    throw new InvalidError("`status' must be 429, 408, 500, or 0 for a delay alone")
  }
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 10_000) {
    throw new InvalidError("`count' must be a whole number of calls from 1 to 10000")
  }
  if (endpoint !== undefined && (typeof endpoint !== 'string' || endpoint === '')) {
    throw new InvalidError("`endpoint' must be an endpoint's dotted name, such as keyv.get")
  }
  if (typeof delayMs !== 'number' || !(delayMs >= 0 && delayMs <= 30_000)) {
    throw new InvalidError("`delayMs' must be milliseconds from 0 to 30000")
  }
  if (typeof retryAfter !== 'number' || !Number.isInteger(retryAfter) || retryAfter < 0) {
    throw new InvalidError("`retryAfter' must be a whole number of seconds")
  }
  if (status === 0 && delayMs === 0) throw new InvalidError('a fault with status 0 needs a delayMs')
  return {
    status: status as FaultRule['status'],
    count,
    ...(endpoint === undefined ? {} : { endpoint: endpoint as string }),
    delayMs,
    retryAfter,
  }
}

/**
 * Faults on demand: rules the control plane adds, each used up by the calls it matches, in
 * the order added. Cleared by `clear` (and by an account reset).
 */
export function createFaults() {
  let rules: FaultRule[] = []
  return {
    add(rule: FaultRule): void {
      rules.push({ ...rule })
    },
    list(): FaultRule[] {
      return rules.map((rule) => ({ ...rule }))
    },
    clear(): void {
      rules = []
    },
    /** The rule this call meets, counted as used; none when no rule matches. */
    take(endpoint: string): FaultRule | undefined {
      const rule = rules.find((r) => r.endpoint === undefined || r.endpoint === endpoint)
      if (!rule) return undefined
      rule.count -= 1
      if (rule.count === 0) rules = rules.filter((r) => r !== rule)
      return rule
    },
  }
}

export type Faults = ReturnType<typeof createFaults>
