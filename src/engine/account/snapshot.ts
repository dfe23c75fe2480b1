import { fromBase64Url } from '../bytes'
import { readSeed } from '../auth/random'
import { SECRETS_VERSION } from '../auth/secret-index'
import { isTime, MAX_CLOCK_ADVANCE, MAX_TIME_TEXT } from '../clock'
import { InvalidError } from '../errors'
import { MAX_JSON_DEPTH } from '../lang/depth'
import { asProcedure, parseValue } from '../lang/parser'
import { fromStored } from '../lang/stored'
import { MAX_BUCKET_LENGTH, MAX_KEY_LENGTH, MAX_STORED_VALUE_BYTES } from '../packages/keyv'
import { RECORD_NAME } from '../packages/procs'
import { measure } from '../runtime/size'
import { yieldWhenDue } from '../runtime/turns'
import { isObject } from '../runtime/types'
import { defaultLimits } from '../settings'
import type { Json, KeyvEntry, ProcRecord, SecretRecord, StoreSnapshot } from '../store'
import { MAX_SECRETS, SECRET_ID_PATTERN, SECRET_KEY_PATTERN } from './secrets'
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

/**
 * How many levels of the document lead down to a field: `format` (1), `meta.signingKey` (2),
 * `keyv[3].value` (3). A field's own value nests below that.
 */
const fieldLevel = (top: string): number =>
  top === 'meta' ? 2 : top === 'secrets' || top === 'keyv' || top === 'procs' ? 3 : 1

/** The first `length` characters of a value as JSON, for a message. */
function quoted(value: unknown, length = 40): string {
  const text = JSON.stringify(value) ?? String(value)
  return text.length > length ? `${text.slice(0, length)}…` : text
}

class Fail extends InvalidError {
  constructor(path: string, problem: string) {
    super(`invalid snapshot: ${path} ${problem}`, 'invalid_snapshot')
  }
}

/**
 * Where the document first nests deeper than its values may (the depth limit of the API, plus
 * the document's own frame), as a path; `undefined` when it does not. Iterative, so a hostile
 * import cannot overflow the stack while being checked.
 */
async function tooDeep(root: unknown): Promise<string | undefined> {
  if (root === null || typeof root !== 'object') return undefined
  // [value, its depth from the document (the document is 0), the path to its field, the
  // depth of that field]
  const stack: Array<[unknown, number, string, number]> = Object.entries(root).map(
    ([key, value]) => [value, 1, key, fieldLevel(key)],
  )
  for (let seen = 1; stack.length > 0; seen++) {
    if (seen % CHECK_PIECE === 0) await giveWay()
    const [value, depth, path, field] = stack.pop()!
    if (value === null || typeof value !== 'object') continue
    // The field itself is its first level.
    if (depth - field + 1 > MAX_JSON_DEPTH) return path
    const child = (key: string): string => (depth < field ? `${path}${key}` : path)
    if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push([item, depth + 1, child(`[${i}]`), field]))
    } else {
      for (const [key, item] of Object.entries(value)) {
        stack.push([item, depth + 1, child(`.${key}`), field])
      }
    }
  }
  return undefined
}

/** Values checked between two looks at the clock while an import is read. */
const CHECK_PIECE = 256
/** Reading an import gives the event loop a turn once it has run this long without one. */
const CHECK_SLICE_MS = 10

/** A turn for the event loop, when reading has held it for a slice. */
async function giveWay(): Promise<void> {
  const turn = yieldWhenDue(CHECK_SLICE_MS)
  if (turn) await turn
}

type Fields = Record<string, (value: unknown, path: string) => void>

/** Checks that `item` at `path` is an object with exactly these fields, each as its check says. */
function record(item: unknown, path: string, fields: Fields): Record<string, Json> {
  if (!isObject(item)) throw new Fail(path, `must be an object, not ${quoted(item)}`)
  for (const key of Object.keys(item)) {
    if (!Object.hasOwn(fields, key)) {
      throw new Fail(
        `${path}.${key}`,
        `is not a field export writes; expected ${Object.keys(fields).join(', ')}`,
      )
    }
  }
  for (const [key, check] of Object.entries(fields)) {
    if (!Object.hasOwn(item, key)) throw new Fail(`${path}.${key}`, 'is missing')
    check(item[key], `${path}.${key}`)
  }
  return item
}

const text =
  (pattern: RegExp, what: string) =>
  (value: unknown, path: string): void => {
    if (typeof value !== 'string' || !pattern.test(value)) {
      throw new Fail(path, `must be ${what}, not ${quoted(value)}`)
    }
  }

const lengthBetween = (min: number, max: number) =>
  text(new RegExp(`^[\\s\\S]{${min},${max}}$`), `a string of ${min} to ${max} characters`)

function time(value: unknown, path: string): void {
  if (typeof value !== 'number' || !isTime(value)) {
    throw new Fail(
      path,
      `must be a Unix time in seconds of at most ${MAX_TIME_TEXT}, not ${quoted(value)}`,
    )
  }
}

const orNull =
  (check: (value: unknown, path: string) => void) =>
  (value: unknown, path: string): void => {
    if (value !== null) check(value, path)
  }

const anything = () => undefined

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

function list(value: unknown, name: string): unknown[] {
  if (!Array.isArray(value)) throw new Fail(name, 'must be an array')
  return value
}

function readSecrets(value: unknown): SecretRecord[] {
  const given = list(value, 'secrets')
  if (given.length > MAX_SECRETS) {
    throw new Fail(
      'secrets',
      `holds ${given.length} secrets, more than an account keeps (${MAX_SECRETS})`,
    )
  }
  const secrets = given.map(
    (item, i) =>
      record(item, `secrets[${i}]`, {
        id: text(SECRET_ID_PATTERN, 'a secret id: sec_ and 1 to 64 of A-Z a-z 0-9 - _'),
        key: text(SECRET_KEY_PATTERN, 'a secret key: 8 to 256 of A-Z a-z 0-9 - _'),
        createdAt: time,
        expiresAt: orNull(time),
        rolledTo: orNull(text(SECRET_ID_PATTERN, 'the id of the secret that replaced it')),
      }) as unknown as SecretRecord,
  )
  const ids = new Map<string, number>()
  const keys = new Map<string, number>()
  secrets.forEach((secret, i) => {
    const sameId = ids.get(secret.id)
    if (sameId !== undefined) {
      throw new Fail(
        `secrets[${i}].id`,
        `${quoted(secret.id)} is also the id of secrets[${sameId}]`,
      )
    }
    const sameKey = keys.get(secret.key)
    if (sameKey !== undefined)
      throw new Fail(`secrets[${i}].key`, `is also the key of secrets[${sameKey}]`)
    ids.set(secret.id, i)
    keys.set(secret.key, i)
  })
  secrets.forEach((secret, i) => {
    if (secret.rolledTo === null) return
    if (secret.rolledTo === secret.id || !ids.has(secret.rolledTo)) {
      throw new Fail(
        `secrets[${i}].rolledTo`,
        `${quoted(secret.rolledTo)} names no other secret of the snapshot`,
      )
    }
    if (secret.expiresAt === null) {
      throw new Fail(
        `secrets[${i}].expiresAt`,
        'must be the time it dies, since it was rolled (rolledTo is set)',
      )
    }
  })
  return secrets
}

async function readKeyv(value: unknown): Promise<KeyvEntry[]> {
  const seen = new Map<string, number>()
  const given = list(value, 'keyv')
  const entries: KeyvEntry[] = []
  for (let i = 0; i < given.length; i++) {
    if (i % CHECK_PIECE === CHECK_PIECE - 1) await giveWay()
    const item = given[i]
    const path = `keyv[${i}]`
    const entry = record(item, path, {
      bucket: lengthBetween(1, MAX_BUCKET_LENGTH),
      key: lengthBetween(1, MAX_KEY_LENGTH),
      value: anything,
    }) as unknown as KeyvEntry
    const id = JSON.stringify([entry.bucket, entry.key])
    const same = seen.get(id)
    if (same !== undefined)
      throw new Fail(
        `${path}.key`,
        `${quoted(entry.key)} is also in keyv[${same}], in the same bucket`,
      )
    seen.set(id, i)
    // Measured as keyv.set measures what it stores.
    if (
      measure(fromStored(entry.value), MAX_STORED_VALUE_BYTES, new WeakMap()) >
      MAX_STORED_VALUE_BYTES
    ) {
      throw new Fail(
        `${path}.value`,
        `is larger than the ${MAX_STORED_VALUE_BYTES} bytes keyv.set stores`,
      )
    }
    entries.push(entry)
  }
  return entries
}

function readProcs(value: unknown, maxBodyBytes: number): ProcRecord[] {
  const seen = new Map<string, number>()
  return list(value, 'procs').map((item, i) => {
    const path = `procs[${i}]`
    const proc = record(item, path, {
      name: text(
        RECORD_NAME,
        'a procedure name: letters, digits, . and _, starting with a letter, at most 64, and :dev for a dev stage',
      ),
      proc: anything,
      createdAt: time,
      updatedAt: time,
    }) as unknown as ProcRecord
    const same = seen.get(proc.name)
    if (same !== undefined)
      throw new Fail(`${path}.name`, `${quoted(proc.name)} is also the name of procs[${same}]`)
    seen.set(proc.name, i)
    if (measure(proc.proc, maxBodyBytes, new WeakMap()) > maxBodyBytes) {
      throw new Fail(
        `${path}.proc`,
        `is larger than the ${maxBodyBytes} bytes a request can carry to store it`,
      )
    }
    let parsed
    try {
      parsed = asProcedure(parseValue(fromStored(proc.proc)))
    } catch (error) {
      throw new Fail(`${path}.proc`, `is not a procedure: ${(error as Error).message}`)
    }
    if (!parsed)
      throw new Fail(
        `${path}.proc`,
        'must be a "{}" composition or a "()" call, as <service>.create stores it',
      )
    return proc
  })
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
