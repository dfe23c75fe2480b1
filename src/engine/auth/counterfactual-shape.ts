// What a counterfactual says (decision 056): the change that would have let a refused call in,
// as one sentence and as data.

/** What would have changed a refusal into an answer: one sentence, and its parts as data. */
export interface Counterfactual {
  /** The refusal's code, as the trace and the journal give it. */
  code: string
  /**
   * The kind of change: `add_ability` (mint with `ability`), `widen_limit` (hold `to` instead of
   * `from`), `use_before` (the same call before `before`), `use_live_secret` (mint again from a
   * live secret, or use the secret that replaced it), `set_insecure` (`insecure: true`),
   * `send_token` (a bearer token of this account), `fix_request` (the body, an argument, the
   * method, the content type), `wait` (a limit of calls or time), `operator` (something the
   * operator set up or the server's own trouble, not the client's call).
   */
  change:
    | 'add_ability'
    | 'widen_limit'
    | 'use_before'
    | 'use_live_secret'
    | 'set_insecure'
    | 'send_token'
    | 'fix_request'
    | 'wait'
    | 'operator'
  /** The change, in one sentence a person reads. */
  sentence: string
  /** `add_ability`: the narrowest ability that lets the call in (limits included). */
  ability?: string
  /** `add_ability`: wider abilities that would let it in too, narrowest first. */
  alternatives?: string[]
  /** `widen_limit`: the ability held, as written, and the same ability widened just enough. */
  from?: string
  to?: string
  /** `use_before`: the call passes until this moment (Unix seconds, virtual clock). */
  before?: number
  /** The ability to add or widen is insecure: minting it needs `insecure: true`. */
  insecure?: boolean
  /** `fix_request`: the argument that was missing or wrong, when one was. */
  argument?: string
  /**
   * `use_before` and `use_live_secret`: the other way in, the token minted again with the same
   * abilities, and what that new token needs to be let in where this one was refused: a live
   * secret (one whose roll does not end it first) and an expiry after the call, as they apply.
   */
  remint?: Remint
  /**
   * Further changes the call needs with this one, in the order it would meet them: each of them,
   * made together with this one, lets the call in (an expired token that never held the ability,
   * say). Absent when this change alone lets it in (decision 087).
   */
  also?: Counterfactual[]
}

/** What a dead token, minted again, needs so that the call it was refused passes. */
export interface Remint {
  /** Minted from a live secret: its own is rolled (or gone), or rolls before the call. */
  liveSecret: boolean
  /** With an expiry after the call (a later `expiry`, a longer `ttl`): its own had passed. */
  laterExpiry: boolean
}

/**
 * How a dead token is minted again, in words: `from a live secret, with a later \`expiry' or a
 * longer \`ttl'`. The roll of its secret (or its absence) is said as well as its expiry, since
 * a token minted again from a secret that has rolled is refused as surely as one that expired.
 */
export function remintPhrase(remint: Remint): string {
  const parts = [
    ...(remint.liveSecret ? ['from a live secret'] : []),
    ...(remint.laterExpiry ? ["with a later `expiry' or a longer `ttl'"] : []),
  ]
  return parts.join(', ')
}
