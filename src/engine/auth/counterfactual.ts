// Counterfactuals: beside each refusal, the smallest change that would have let the call in
// (decision 056). Built from what the engine decided, and checked against the same rules.

import { clockTime } from '../clock'
import { ServiceError } from '../errors'
import { forCode, hasCodeChange } from './code-change'
import { remintPhrase, type Counterfactual } from './counterfactual-shape'

export { addAbility, limitValue, packagesOf, widenLimit, withLimits } from './ability-change'
export { COUNTERFACTUAL_CODES, forCode } from './code-change'
export type { Counterfactual, Remint } from './counterfactual-shape'
export { remintPhrase } from './counterfactual-shape'
export { forCredential, type RefusedCredential } from './credential-change'

const at = clockTime

/** A change as a part of a longer sentence: `holding \`keyv.get' (or \`keyv')`. */
function phrase(change: Counterfactual): string {
  switch (change.change) {
    case 'add_ability': {
      const others = change.alternatives?.length
        ? ` (or ${change.alternatives.map((a) => `\`${a}'`).join(', ')})`
        : ''
      return `holding \`${change.ability}'${others}${change.insecure ? ", minted with `insecure: true'" : ''}`
    }
    case 'widen_limit':
      return `with \`${change.from}' widened to \`${change.to}'`
    case 'set_insecure':
      return "with `insecure: true' in its auth.create call"
    default:
      return `and then: ${change.sentence}`
  }
}

/**
 * `first` with the further changes the call needs beside it (`checked.ts` finds them): its
 * sentence says them all, since `first` alone would still be refused.
 */
export function withAlso(first: Counterfactual, also: Counterfactual[]): Counterfactual {
  const rest = also.map(phrase).join(', and ')
  const refusals = also.map((change) => `\`${change.code}'`).join(', then ')
  const remint = first.remint ? remintPhrase(first.remint) : ''
  let sentence: string
  if (first.change === 'use_before' && first.before !== undefined) {
    const died = first.code === 'expired' ? 'it expired' : "its secret's roll took effect"
    sentence = `even before ${at(first.before)}, when ${died}, it would have been refused (${refusals}): ${rest}, and called before then, it would have passed; or mint it again ${rest}, ${remint}`
  } else if (first.change === 'use_before' || first.change === 'use_live_secret') {
    sentence = `while it worked it would still have been refused (${refusals}): mint it again ${rest}, ${remint}`
  } else {
    sentence = `${first.sentence}; let in, it would still have been refused (${refusals}): ${rest}`
  }
  return { ...first, also, sentence }
}

/** Counterfactuals the engine built for the errors it threw (those it could say more of). */
const attached = new WeakMap<object, Counterfactual>()

/** Keeps `counterfactual` with `error`, for the request's outcome. Returns the error. */
export function withCounterfactual<E extends object>(error: E, counterfactual: Counterfactual): E {
  attached.set(error, counterfactual)
  return error
}

/** The counterfactual of a thrown error: the one built for it, or its code's. */
export function counterfactualOf(error: unknown): Counterfactual {
  if (typeof error === 'object' && error !== null) {
    const known = attached.get(error)
    if (known) return known
  }
  if (error instanceof ServiceError) return forCode(error.code, error.message)
  const code = (error as { code?: unknown } | null)?.code
  return forCode(typeof code === 'string' && hasCodeChange(code) ? code : 'fault', undefined)
}
