import { tokenOf } from '../../client/exchange'
import type { ExchangeRecord } from '../../engine'
import type { SecretInfo } from './record-context'

/** A roll of secret `from` that made `to`. */
export interface Roll {
  from: SecretInfo
  to: SecretInfo
}

/**
 * Where each roll goes: before the first exchange that shows it (the new secret in use, or
 * the old one, or a token from it, dying or dead). A roll no exchange shows changes no answer.
 */
export function scheduleRolls(
  kept: readonly ExchangeRecord[],
  secrets: readonly SecretInfo[],
  note: (text: string) => void,
): Map<number, Roll[]> {
  const rolls = new Map<number, Roll[]>()
  const targets = secrets
    .map((to) => ({
      to,
      from: to.id ? secrets.find((s) => s.id && s.rolledTo === to.id) : undefined,
    }))
    .filter((roll): roll is { to: SecretInfo; from: SecretInfo } => roll.from !== undefined)
    .sort((a, b) => (a.to.createdAt ?? 0) - (b.to.createdAt ?? 0))
  for (const roll of targets) {
    const index = kept.findIndex((r) => {
      const credential = r.trace.credential
      if (tokenOf(r) === roll.to.key) return true
      if (!credential) return false
      if (credential.secretId === roll.to.id) return true
      return (
        credential.secretId === roll.from.id &&
        (credential.secretExpiresAt !== null || credential.reason === 'secret_rolled')
      )
    })
    if (index < 0) {
      note(`the roll of secret ${roll.from.id} is left out: no exchange shows it`)
      continue
    }
    rolls.set(index, [...(rolls.get(index) ?? []), roll])
  }
  return rolls
}
