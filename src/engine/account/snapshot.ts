import { fromBase64Url } from '../bytes'
import { readSeed } from '../auth/random'
import { SECRETS_VERSION } from '../auth/secret-index'
import { MAX_CLOCK_ADVANCE } from '../clock'
import { InvalidError } from '../errors'
import { MAX_JSON_DEPTH } from '../lang/depth'
import { isObject } from '../runtime/types'
import { defaultLimits } from '../settings'
import type { Json, StoreSnapshot } from '../store'
import { anything, Fail, quoted, tooDeep, type Fields } from './snapshot-checks'
import { readKeyv, readProcs, readSecrets } from './snapshot-entries'
import { USAGE, usageOf } from './usage'
import { readWatches, WATCHES } from './watch'

export const SNAPSHOT_FORMAT = 'service-playground/account'
export const SNAPSHOT_VERSION = 1

/** The meta keys an export writes: the signing key, the clock's offset, and two it recomputes. */
export const SIGNING_KEY = 'signingKey'
export const CLOCK_OFFSET = 'clockOffset'
/** The account's seed, when it has one (decision 086). */
export const SEED = 'seed'

/** The whole account as JSON: what export writes and import reads. */
export interface AccountSnapshot extends StoreSnapshot {
  format: typeof SNAPSHOT_FORMAT
  version: typeof SNAPSHOT_VERSION
  serviceName: string
  exportedAt: number
}

/** The limits an import is held to: the account's, as the API holds every write to them. */
export interface SnapshotLimits {
  /** Bytes of keys, values and procedures (`Limits.maxAccountBytes`). */
  maxAccountBytes: number
  /** The largest stored procedure: what one request body can carry (`Limits.maxBodyBytes`). */
  maxBodyBytes: number
}

/** A stored clock offset (milliseconds) the clock may take: finite, 0 or more, in bounds. */
export const isClockOffset = (value: unknown): value is number =>
  typeof value === 'number' && value >= 0 && value <= MAX_CLOCK_ADVANCE * 1000

/** The meta entries an import may carry, each checked; `usage` and `secretsVersion` are rewritten. */
const META: Fields = {
  [SIGNING_KEY]: (value, path) => {
    if (typeof value !== 'string' || (fromBase64Url(value)?.length ?? 0) < 16) {
      throw new Fail(path, 'must be a base64url key of at least 16 bytes, as export writes it')
    }
  },
  [CLOCK_OFFSET]: (value, path) => {
    if (!isClockOffset(value)) {
      throw new Fail(path, `must be milliseconds from 0 to ${MAX_CLOCK_ADVANCE * 1000}`)
    }
  },
  [SEED]: (value, path) => {
    const seed = readSeed(value)
    if (typeof seed !== 'string') throw new Fail(path, seed.problem.replace("`seed' ", ''))
  },
  [USAGE]: anything,
  [SECRETS_VERSION]: anything,
  [WATCHES]: (value, path) => {
    readWatches(value, (at, problem) => {
      throw new Fail(`${path}${at}`, problem)
    })
  },
}

/** An import's meta entries, each one export writes. */
function readMeta(value: unknown): Record<string, Json> {
  if (!isObject(value)) throw new Fail('meta', 'must be an object')
  for (const [key, entry] of Object.entries(value)) {
    const check = Object.hasOwn(META, key) ? META[key] : undefined
    if (!check) {
      throw new Fail(
        `meta.${key}`,
        `is not something export writes; expected ${Object.keys(META).join(', ')}`,
      )
    }
    check(entry, `meta.${key}`)
  }
  return value
}

/**
 * Checks an imported snapshot as the API checks every write: each secret, key and procedure
 * with the rules and limits of the endpoints and settings that make them, no two with the same
 * id, key or name, and the whole within the account's quota. The 400 names the first bad
 * field by its path (`keyv[3].value`). Nothing is written here: the caller commits all or
 * nothing. A large import is checked a piece at a time, the event loop given a turn between
 * pieces, so that other requests are answered while it is read.
 */
export async function readSnapshot(
  value: unknown,
  limits: SnapshotLimits = defaultLimits,
): Promise<StoreSnapshot> {
  const deep = await tooDeep(value)
  if (deep !== undefined) {
    throw new Fail(deep, `nests deeper than ${MAX_JSON_DEPTH} levels`)
  }
  if (!isObject(value))
    throw new InvalidError('invalid snapshot: expected a JSON object as written by export')
  if (value.format !== SNAPSHOT_FORMAT) throw new Fail('format', `must be "${SNAPSHOT_FORMAT}"`)
  if (value.version !== SNAPSHOT_VERSION) {
    throw new InvalidError(
      `invalid snapshot: version ${quoted(value.version)} is not supported; this playground reads version ${SNAPSHOT_VERSION}`,
    )
  }
  const snapshot: StoreSnapshot = {
    meta: readMeta(value.meta),
    secrets: readSecrets(value.secrets),
    keyv: await readKeyv(value.keyv),
    procs: readProcs(value.procs, limits.maxBodyBytes),
  }
  const usage = usageOf(snapshot)
  if (usage > limits.maxAccountBytes) {
    throw new InvalidError(
      `invalid snapshot: its keys, values and procedures take ${usage} bytes, more than the account's quota of ${limits.maxAccountBytes}`,
      'quota_exceeded',
    )
  }
  return snapshot
}
