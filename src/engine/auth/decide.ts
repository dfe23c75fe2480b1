// The one decision whether a principal may call an endpoint, and reach what a key-value call
// touches: the evaluator answers calls with it, and reach, simulate and diff read it (decision
// 055), so an insight can never disagree with a call.

import { covers, granting, grantingTarget, type Ability, type KeyvTarget } from './abilities'
import type { Principal } from './principal'
import { addAbility, widenLimit } from './ability-change'
import type { Counterfactual } from './counterfactual-shape'

/** A call let in by the secret key, which reaches everything. */
export const BY_SECRET: unique symbol = Symbol('by the secret key')

/** Why a call was refused: its code, one sentence, and the change that would let it in. */
export class Refusal {
  constructor(
    readonly code: 'missing_ability' | 'outside_limit',
    readonly explanation: string,
    /** Built on demand: refusals are answered without it when nothing reads the trace. */
    readonly counterfactual: () => Counterfactual,
  ) {}
}

/** What a decision came to: the secret, the ability that let the call in, or a refusal. */
export type Verdict = typeof BY_SECRET | Ability | Refusal

/** The abilities a principal holds, as a refusal quotes them: made once per set of abilities. */
const quoted = new WeakMap<readonly Ability[], string>()

function heldText(abilities: readonly Ability[]): string {
  let text = quoted.get(abilities)
  if (text === undefined) {
    text = abilities.map((a) => `\`${a.raw}'`).join(', ')
    quoted.set(abilities, text)
  }
  return text
}

/**
 * Whether `principal` may call `name`, its key-value limits aside. `insecure` says whether
 * the endpoint is insecure, for the change a refusal names.
 */
export function decide(principal: Principal, name: string, insecure = false): Verdict {
  if (principal.kind === 'secret') return BY_SECRET
  const ability = granting(principal.abilities, name)
  if (ability) return ability
  return new Refusal(
    'missing_ability',
    `no ability covers \`${name}'; the authorization holds ${heldText(principal.abilities)}`,
    () => addAbility(name, insecure),
  )
}

/** Whether an ability of `principal` reaches what a key-value call touches, limits included. */
export function decideTarget(principal: Principal, name: string, target: KeyvTarget): Verdict {
  if (principal.kind === 'secret') return BY_SECRET
  const ability = grantingTarget(principal.abilities, name, target)
  if (ability) return ability
  const covering = principal.abilities
    .filter((a) => covers(a.name, name))
    .map((a) => `\`${a.raw}'`)
    .join(', ')
  const what = name === 'keyv.scan' ? 'prefix' : 'key'
  const abilities = principal.abilities
  return new Refusal(
    'outside_limit',
    `${covering} ${covering.includes(',') ? 'cover' : 'covers'} \`${name}', but not bucket \`${target.bucket}' with ${what} \`${target.key}': the call is outside its key-value limits`,
    () => widenLimit(abilities, name, target),
  )
}
