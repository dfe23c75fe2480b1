// The fields of a journal entry's request and decision trace, each read as untrusted: one that
// is not what the engine writes reads as `null`, never a fault.

import { parseAbility } from '../../auth/abilities'
import { isTime } from '../../clock'
import { withoutStage } from '../../stages'

export type Loose = Record<string, unknown>
export const isObject = (value: unknown): value is Loose =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
export const text = (value: unknown): string | null => (typeof value === 'string' ? value : null)
export const time = (value: unknown): number | null =>
  typeof value === 'number' && isTime(value) ? value : null
const STAGED = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*(:dev)?$/
export const CODE = /^[a-z][a-z0-9_]{0,63}$/
const SECRET_ID = /^[A-Za-z0-9_.:-]{1,128}$/

/** An endpoint name as a trace writes one, without its stage; `null` for anything else. */
export const endpointOf = (value: unknown): string | null => {
  const name = text(value)
  if (name === null || name.length > 512 || !STAGED.test(name)) return null
  // Only a dev stage is taken off: every other name is kept as it is, with nothing made.
  return name.endsWith(':dev') ? withoutStage(name) : name
}

/** Abilities that all read as abilities, or `null`. */
function abilitiesOf(value: unknown): string[] | null {
  if (!Array.isArray(value) || value.length === 0) return null
  const list: string[] = []
  for (const raw of value) {
    if (typeof raw !== 'string') return null
    try {
      parseAbility(raw)
    } catch {
      return null
    }
    list.push(raw)
  }
  return list
}

/** The value of header `name` (lower case) in a journal's list of pairs, or `null`. */
export const header = (headers: unknown, name: string): string | null => {
  if (!Array.isArray(headers)) return null
  for (let i = 0; i < headers.length; i++) {
    const pair: unknown = headers[i]
    // Lengths first: a name of another length is never lowered (a copy per header, per entry).
    if (
      Array.isArray(pair) &&
      typeof pair[0] === 'string' &&
      pair[0].length === name.length &&
      (pair[0] === name || pair[0].toLowerCase() === name)
    ) {
      return text(pair[1])
    }
  }
  return null
}

/**
 * What tells one token from another in a credential trace, as it is written: its secret, its
 * abilities, `insecure`, when it was made and when it expires (two tokens alike in all of
 * these reach the same). Made per entry, so it reads nothing twice.
 */
export function keyOf(credential: Record<string, unknown>): string {
  const { secretId, abilities, insecure, createdAt, expiresAt } = credential
  const listed = Array.isArray(abilities) ? abilities.join('\u0001') : String(abilities)
  return `${String(secretId)}\u0000${listed}\u0000${String(insecure)}\u0000${String(createdAt)}\u0000${String(expiresAt)}`
}

/** What a credential trace says of an authorization, each field checked. */
export function identityOf(credential: Record<string, unknown>) {
  const secretId = text(credential.secretId)
  return {
    secretId: secretId !== null && SECRET_ID.test(secretId) ? secretId : null,
    abilities: abilitiesOf(credential.abilities),
    insecure: typeof credential.insecure === 'boolean' ? credential.insecure : null,
    createdAt: time(credential.createdAt),
    expiresAt: time(credential.expiresAt),
  }
}
