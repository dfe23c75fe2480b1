// An import's lists: its secrets, its key-value entries and its procedures, each entry held to
// the rules and limits of the endpoints that make them, no two with the same id, key or name.

import { asProcedure, parseValue } from '../lang/parser'
import { fromStored } from '../lang/stored'
import { MAX_BUCKET_LENGTH, MAX_KEY_LENGTH, MAX_STORED_VALUE_BYTES } from '../packages/keyv'
import { RECORD_NAME } from '../packages/procs'
import { measure } from '../runtime/size'
import type { KeyvEntry, ProcRecord, SecretRecord } from '../store'
import { MAX_SECRETS, SECRET_ID_PATTERN, SECRET_KEY_PATTERN } from './secrets'
import {
  anything,
  CHECK_PIECE,
  Fail,
  giveWay,
  lengthBetween,
  list,
  orNull,
  quoted,
  record,
  text,
  time,
} from './snapshot-checks'

/** An import's secrets, each as `secrets.create` makes one, no two with the same id or key. */
export function readSecrets(value: unknown): SecretRecord[] {
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

/** An import's key-value entries, each within the limits `keyv.set` holds a write to. */
export async function readKeyv(value: unknown): Promise<KeyvEntry[]> {
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

/** An import's procedures, each one `procs.set` could have stored. */
export function readProcs(value: unknown, maxBodyBytes: number): ProcRecord[] {
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
