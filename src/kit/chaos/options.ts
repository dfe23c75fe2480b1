import { readSeed } from '../../engine/auth/random'

/**
 * What a chaos run may inject: the fault table's kinds (decision 066) but `respond`, which
 * answers what a person wrote, and the authorization lifecycle: `throttle` (a 429 with
 * `retry-after`), `expire` (the clock jumped past the token's expiry just before the call) and
 * `roll` (the account's secrets rolled, effective at once, just before the call: the
 * authorizations and cursors they made die with them).
 */
export const CHAOS_KINDS = [
  'status',
  'throttle',
  'delay',
  'network',
  'reset',
  'truncate',
  'hang',
  'expire',
  'roll',
] as const
export type ChaosKind = (typeof CHAOS_KINDS)[number]

/** `useService({ chaos })`: seeded faults for every test of the file (decision 091). */
export interface ChaosOptions {
  /** What every fault is drawn from: a whole number or a text. */
  seed: string | number
  /** How many times each test runs, each run with its own faults; default 20. */
  runs?: number
  /** The kinds drawn from; default all of `CHAOS_KINDS`. */
  kinds?: ChaosKind[]
  /** The chance each call meets a fault, more than 0 and at most 1; default 0.2. */
  rate?: number
  /** The most reruns one failure's shrinking may take; default 60. */
  maxReruns?: number
  /**
   * A folder the run's report is written to as JUnit, one file per test file
   * (`chaos-<file>.xml`), for CI (decision 103); the report is printed either way.
   */
  junit?: string
}

/** Chaos options as checked, every default filled in. */
export interface ChaosSettings {
  seed: string
  runs: number
  kinds: ChaosKind[]
  rate: number
  maxReruns: number
  junit?: string
}

const KEYS = ['seed', 'runs', 'kinds', 'rate', 'maxReruns', 'junit']

/**
 * Reads `chaos` as `where` was given it, or throws an error naming the option that is wrong,
 * before any test runs.
 */
export function readChaosOptions(where: string, given: unknown): ChaosSettings {
  const fail = (message: string): never => {
    throw new Error(`${where}: chaos.${message}`)
  }
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new Error(`${where}: \`chaos' must be an object: { seed, runs?, kinds?, rate? }`)
  }
  const options = given as Record<string, unknown>
  const unknown = Object.keys(options).filter((key) => !KEYS.includes(key))
  if (unknown.length > 0) {
    throw new Error(
      `${where}: \`chaos' takes ${KEYS.join(', ')}; not ${unknown.map((key) => `\`${key}'`).join(', ')}`,
    )
  }
  const seed = readSeed(options.seed)
  if (typeof seed !== 'string') fail(seed.problem)
  const { runs = 20, kinds = [...CHAOS_KINDS], rate = 0.2, maxReruns = 60, junit } = options
  if (typeof runs !== 'number' || !Number.isInteger(runs) || runs < 1 || runs > 10_000) {
    fail(`runs must be a whole number of runs from 1 to 10000; got ${String(runs)}`)
  }
  if (!Array.isArray(kinds) || kinds.length === 0) {
    fail(`kinds must be a list of one or more of ${CHAOS_KINDS.join(', ')}`)
  }
  const wrong = (kinds as unknown[]).filter(
    (kind) => !(CHAOS_KINDS as readonly unknown[]).includes(kind),
  )
  if (wrong.length > 0) {
    fail(
      `kinds: ${wrong.map((kind) => JSON.stringify(kind)).join(', ')} is not a kind; the kinds are ${CHAOS_KINDS.join(', ')}`,
    )
  }
  if (typeof rate !== 'number' || !(rate > 0 && rate <= 1)) {
    fail(`rate must be a number more than 0 and at most 1; got ${String(rate)}`)
  }
  if (
    typeof maxReruns !== 'number' ||
    !Number.isInteger(maxReruns) ||
    maxReruns < 0 ||
    maxReruns > 10_000
  ) {
    fail(`maxReruns must be a whole number from 0 to 10000; got ${String(maxReruns)}`)
  }
  if (junit !== undefined && (typeof junit !== 'string' || junit.trim() === '')) {
    fail(
      `junit must be the folder to write the report's JUnit files in; got ${JSON.stringify(junit)}`,
    )
  }
  return {
    ...(junit === undefined ? {} : { junit: junit as string }),
    seed: seed as string,
    runs: runs as number,
    kinds: [...new Set(kinds as ChaosKind[])],
    rate: rate as number,
    maxReruns: maxReruns as number,
  }
}
