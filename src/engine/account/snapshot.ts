import { InvalidError } from '../errors'
import { isObject } from '../runtime/types'
import type { Json, StoreSnapshot } from '../store'
import { PROC_NAME } from '../packages/procs'
import { assertJsonDepth, MAX_JSON_DEPTH } from '../lang/depth'
import { SECRET_KEY_PATTERN } from './secrets'

export const SNAPSHOT_FORMAT = 'service-playground/account'
export const SNAPSHOT_VERSION = 1

/** The whole account as JSON: what export writes and import reads. */
export interface AccountSnapshot extends StoreSnapshot {
  format: typeof SNAPSHOT_FORMAT
  version: typeof SNAPSHOT_VERSION
  serviceName: string
  exportedAt: number
}

type Check = (value: unknown) => boolean
const isString: Check = (v) => typeof v === 'string'
const isNumber: Check = (v) => typeof v === 'number' && Number.isFinite(v)
const orNull =
  (check: Check): Check =>
  (v) =>
    v === null || check(v)
const anything: Check = () => true
const matching =
  (pattern: RegExp): Check =>
  (v) =>
    typeof v === 'string' && pattern.test(v)

const shapes: Record<'secrets' | 'keyv' | 'procs', Record<string, Check>> = {
  secrets: {
    id: isString,
    // What the API would refuse is refused here too: an import is no back door.
    key: matching(SECRET_KEY_PATTERN),
    createdAt: isNumber,
    expiresAt: orNull(isNumber),
    rolledTo: orNull(isString),
  },
  keyv: { bucket: isString, key: isString, value: anything },
  procs: { name: matching(PROC_NAME), proc: anything, createdAt: isNumber, updatedAt: isNumber },
}

/** Checks an imported snapshot field by field; the 400 names the first thing wrong. */
export function readSnapshot(value: unknown): StoreSnapshot {
  const fail = (what: string) => new InvalidError(`invalid snapshot: ${what}`)
  if (!isObject(value)) throw fail('expected a JSON object as written by export')
  if (value.format !== SNAPSHOT_FORMAT) throw fail(`\`format' must be "${SNAPSHOT_FORMAT}"`)
  if (value.version !== SNAPSHOT_VERSION) {
    throw fail(
      `version ${JSON.stringify(value.version)} is not supported; this playground reads version ${SNAPSHOT_VERSION}`,
    )
  }
  if (!isObject(value.meta)) throw fail("`meta' must be an object")
  for (const [list, shape] of Object.entries(shapes)) {
    const items = value[list]
    if (!Array.isArray(items)) throw fail(`\`${list}' must be an array`)
    items.forEach((item, index) => {
      if (!isObject(item)) throw fail(`${list}[${index}] must be an object`)
      for (const [field, check] of Object.entries(shape)) {
        if (!(field in item) || !check(item[field]))
          throw fail(`${list}[${index}].${field} is missing or malformed`)
      }
      if (list !== 'secrets') {
        const value = item[list === 'keyv' ? 'value' : 'proc']
        assertJsonDepth(
          value,
          MAX_JSON_DEPTH,
          `invalid snapshot: ${list}[${index}].${list === 'keyv' ? 'value' : 'proc'}`,
        )
      }
    })
  }
  return {
    meta: value.meta as Record<string, Json>,
    secrets: value.secrets as unknown as StoreSnapshot['secrets'],
    keyv: value.keyv as unknown as StoreSnapshot['keyv'],
    procs: value.procs as unknown as StoreSnapshot['procs'],
  }
}
