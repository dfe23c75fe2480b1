// Counterfactuals: beside each refusal, the smallest change that would have let the call in
// (decision 056). Built from what the engine decided, and checked against the same rules.

import { covers, grantingTarget, parseAbility, type Ability, type KeyvTarget } from './abilities'
import { clockTime } from '../clock'
import { ServiceError } from '../errors'
import { withoutStage } from '../stages'

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

const at = clockTime

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

/** The remint a refused credential needs: its secret dead or rolling, its expiry set. */
function remintOf(refused: RefusedCredential): Remint {
  return {
    liveSecret:
      refused.reason === 'secret_rolled' ||
      refused.reason === 'secret_unknown' ||
      refused.secretExpiresAt !== null,
    laterExpiry: refused.reason === 'expired' || refused.expiresAt !== null,
  }
}

/** The packages above `name`, nearest first: `type.string.reverse` → `type.string`, `type`. */
export function packagesOf(name: string): string[] {
  // Below `lib` an ability names one procedure: only `lib` itself reaches the others.
  if (name.startsWith('lib.')) return ['lib']
  const parts = name.split('.')
  const above: string[] = []
  for (let i = parts.length - 1; i > 0; i--) above.push(parts.slice(0, i).join('.'))
  return above
}

/** `missing_ability`: the endpoint itself is the narrowest ability that lets it in. */
export function addAbility(called: string, insecure: boolean): Counterfactual {
  // A procedure's dev stage (`lib.p:dev`) is reached by the ability naming the procedure.
  const name = withoutStage(called)
  const alternatives = packagesOf(name)
  return {
    code: 'missing_ability',
    change: 'add_ability',
    ability: name,
    alternatives,
    ...(insecure ? { insecure: true } : {}),
    sentence: `an authorization holding \`${name}'${alternatives.length ? ` (or ${alternatives.map((a) => `\`${a}'`).join(', ')})` : ''} would have been let in${insecure ? "; it is insecure, so auth.create needs `insecure: true' to grant it" : ''}`,
  }
}

/** A limit's value as an ability writes it (decision 003), `/` left as it is. */
export function limitValue(value: string): string {
  return encodeURIComponent(value).replaceAll('%2F', '/')
}

/** An ability with the given limits, written so that `parseAbility` reads them back. */
export function withLimits(name: string, bucket?: string, prefix?: string): string {
  const limits = [
    ...(bucket === undefined ? [] : [`bucket=${limitValue(bucket)}`]),
    ...(prefix === undefined || prefix === '' ? [] : [`prefix=${limitValue(prefix)}`]),
  ]
  return limits.length ? `${name}?${limits.join('&')}` : name
}

const commonPrefix = (a: string, b: string) => {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return a.slice(0, i)
}

/**
 * `outside_limit`: of the abilities that cover the endpoint, the one needing the least
 * widening (keep its bucket when the bucket is right; keep as much of its prefix as reaches
 * the key), checked against the very rule that refused the call.
 */
export function widenLimit(
  abilities: readonly Ability[],
  name: string,
  target: KeyvTarget,
): Counterfactual {
  const narrowest = withLimits(name, target.bucket, target.key)
  let best: { from: string; to: string; cost: number } | undefined
  for (const ability of abilities) {
    if (!covers(ability.name, name)) continue
    const bucketFits = ability.bucket === undefined || ability.bucket === target.bucket
    const prefix =
      ability.prefix === undefined ? undefined : commonPrefix(ability.prefix, target.key)
    const to = withLimits(ability.name, bucketFits ? ability.bucket : undefined, prefix)
    // Dropping a bucket widens most; then the characters of prefix given up.
    const cost =
      (bucketFits ? 0 : 1_000_000) + ((ability.prefix?.length ?? 0) - (prefix?.length ?? 0))
    if (!best || cost < best.cost) best = { from: ability.raw, to, cost }
  }
  const where = `bucket \`${target.bucket}' ${name === 'keyv.scan' ? 'with prefix' : 'for key'} \`${target.key}'`
  if (best && grantingTarget([parseAbility(best.to)], name, target)) {
    return {
      code: 'outside_limit',
      change: 'widen_limit',
      from: best.from,
      to: best.to,
      ability: narrowest,
      sentence: `\`${best.from}' widened to \`${best.to}' would reach ${where}; or add \`${narrowest}'`,
    }
  }
  return {
    code: 'outside_limit',
    change: 'add_ability',
    ability: narrowest,
    alternatives: [withLimits(name, target.bucket), name],
    sentence: `an ability such as \`${narrowest}' would reach ${where}`,
  }
}

/** What a credential trace knows of the token it refused. */
export interface RefusedCredential {
  kind: 'none' | 'secret' | 'authorization' | 'unknown'
  reason: string
  secretId: string | null
  expiresAt: number | null
  secretExpiresAt: number | null
}

/** The change that would have let a refused token in. */
export function forCredential(refused: RefusedCredential): Counterfactual {
  const { reason } = refused
  switch (reason) {
    case 'missing':
      return {
        code: reason,
        change: 'send_token',
        sentence:
          'send the header `authorization: bearer <token>` with a secret key of this account or an authorization made from one',
      }
    case 'malformed':
      return {
        code: reason,
        change: 'send_token',
        sentence:
          'write the header as `authorization: bearer <token>`: the word bearer, a space, the token',
      }
    case 'unknown_token':
      return {
        code: reason,
        change: 'send_token',
        sentence:
          "use a secret key this account holds, or an authorization auth.create returned (an authorization's text holds a dot)",
      }
    case 'bad_signature':
      return {
        code: reason,
        change: 'send_token',
        sentence:
          'send the authorization exactly as auth.create returned it, from this account since its last reset, or mint a new one',
      }
    case 'expired': {
      // The first cause in time: it expired before any roll of its secret (decision 087). Minted
      // again, it needs a later expiry, and a live secret too when its own rolls.
      const remint = remintOf(refused)
      return {
        code: reason,
        change: 'use_before',
        ...(refused.expiresAt === null ? {} : { before: refused.expiresAt }),
        remint,
        sentence: `called before ${refused.expiresAt === null ? 'its expiry' : at(refused.expiresAt)} it would have passed; or mint it again ${remintPhrase(remint)}${rollNote(refused)}`,
      }
    }
    case 'secret_rolled': {
      if (refused.kind === 'secret') {
        return {
          code: reason,
          change: 'use_before',
          ...(refused.secretExpiresAt === null ? {} : { before: refused.secretExpiresAt }),
          sentence: `called before ${refused.secretExpiresAt === null ? 'the roll' : at(refused.secretExpiresAt)}, when the roll of \`${refused.secretId}' took effect, it would have passed; use the secret that replaced it`,
        }
      }
      const remint = remintOf(refused)
      return {
        code: reason,
        change: 'use_before',
        ...(refused.secretExpiresAt === null ? {} : { before: refused.secretExpiresAt }),
        remint,
        sentence: `called before ${refused.secretExpiresAt === null ? 'the roll' : at(refused.secretExpiresAt)}, when the roll of its secret \`${refused.secretId}' took effect, it would have passed; or mint it again ${remintPhrase(remint)}${expiryNote(refused)}`,
      }
    }
    case 'secret_unknown': {
      const remint = remintOf(refused)
      return {
        code: reason,
        change: 'use_live_secret',
        remint,
        sentence: `its secret \`${refused.secretId}' is gone from this account: mint it again from a secret the account holds${remint.laterExpiry ? ", with a later `expiry' or a longer `ttl'" : ''}${expiryNote(refused)}`,
      }
    }
    default:
      return forCode(reason, undefined)
  }
}

/** After an expiry's remint: when its secret's roll takes effect, which a new token must outlive. */
const rollNote = (refused: RefusedCredential) =>
  refused.secretExpiresAt === null
    ? ''
    : ` (the roll of its secret \`${refused.secretId}' takes effect at ${at(refused.secretExpiresAt)})`

/** After a roll's remint: its own expiry, which a new token minted the same way would meet. */
const expiryNote = (refused: RefusedCredential) =>
  refused.expiresAt === null ? '' : ` (its own expiry was ${at(refused.expiresAt)})`

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

/** The argument a 400's message names: ``invalid argument `length' for …``. */
const argumentOf = (message: string | undefined) =>
  message ? /invalid argument `([^']+)'/.exec(message)?.[1] : undefined

/**
 * Every code the engine answers a call with, and its change. `decision 056` lists them; a test
 * finds every code in the source and holds this table to it.
 */
const BY_CODE: Record<string, (message: string | undefined) => Omit<Counterfactual, 'code'>> = {
  missing_ability: () => ({
    change: 'add_ability',
    sentence: 'an authorization holding an ability that covers the endpoint would have been let in',
  }),
  outside_limit: () => ({
    change: 'widen_limit',
    sentence:
      "an ability whose key-value limits reach the call's bucket and key would have let it in",
  }),
  insecure_ability: () => ({
    change: 'set_insecure',
    insecure: true,
    sentence: "add `insecure: true' to the auth.create call to grant insecure abilities",
  }),
  required: (message) => {
    const argument = argumentOf(message)
    return {
      change: 'fix_request',
      ...(argument ? { argument } : {}),
      sentence: `give the argument${argument ? ` \`${argument}'` : ''} the call requires`,
    }
  },
  not_coercible: (message) => {
    const argument = argumentOf(message)
    return {
      change: 'fix_request',
      ...(argument ? { argument } : {}),
      sentence: `give${argument ? ` \`${argument}'` : ' the argument'} a value of the type the endpoint declares (GET /_account/endpoints lists them)`,
    }
  },
  invalid: (message) => {
    const argument = argumentOf(message)
    return {
      change: 'fix_request',
      ...(argument ? { argument } : {}),
      sentence: `fix the request as the message says${message ? `: ${message}` : ''}`,
    }
  },
  syntax_error: (message) => ({
    change: 'fix_request',
    argument: 'code',
    sentence: `correct the program where the message points${message ? `: ${message}` : ''} (the language is in decision 050)`,
  }),
  invalid_cursor: () => ({
    change: 'fix_request',
    argument: 'cursor',
    sentence:
      'repeat the same keyv.scan (same bucket and prefix) with the x-cursor its last page gave, under a credential from the same live secret',
  }),
  not_a_proc: () => ({
    change: 'fix_request',
    argument: 'proc',
    sentence: 'give a "{}" composition or a "()" call where the endpoint runs a procedure',
  }),
  too_deep: () => ({
    change: 'fix_request',
    sentence: 'nest calls, compositions and values less deeply (the limit is in decision 006)',
  }),
  too_many_calls: () => ({
    change: 'fix_request',
    sentence: 'make fewer calls in one request (the limit is in decision 006)',
  }),
  value_too_large: () => ({
    change: 'fix_request',
    sentence: 'produce smaller values (the limit is in decision 006)',
  }),
  number_overflow: () => ({
    change: 'fix_request',
    sentence: 'send numbers past 2^53 as decimal text, never as JSON numbers (decision 023)',
  }),
  number_inexact: () => ({
    change: 'fix_request',
    sentence: 'send numbers past 2^53 as decimal text, never as JSON numbers (decision 023)',
  }),
  body_incomplete: () => ({
    change: 'fix_request',
    sentence: 'send the whole body its content-length announces',
  }),
  too_large: () => ({
    change: 'fix_request',
    sentence: 'send a smaller body or value (the limits are in decision 006)',
  }),
  unsupported_media_type: () => ({
    change: 'fix_request',
    sentence:
      'send the body as text/plain, application/json or the tuple and MessagePack types the message names',
  }),
  method_not_allowed: () => ({ change: 'fix_request', sentence: 'call the endpoint with POST' }),
  undefined: () => ({
    change: 'fix_request',
    sentence:
      'call an endpoint that exists (the message suggests its neighbours; GET /_account/endpoints lists them all)',
  }),
  conflict: () => ({
    change: 'fix_request',
    sentence: 'the procedure already exists: update it instead of creating it',
  }),
  strict: () => ({
    change: 'fix_request',
    sentence:
      'send the request as the interface promises: the deviations are listed in the message',
  }),
  timeout: () => ({
    change: 'wait',
    sentence: 'finish within the time limit: sleep less, or split the work into several calls',
  }),
  client_gone: () => ({
    change: 'wait',
    sentence: 'wait for the answer: the client went away before it, and the work stopped',
  }),
  rate_limited: () => ({
    change: 'wait',
    sentence: 'wait for the rate window to pass (the answer says when: retry-after)',
  }),
  invalid_snapshot: () => ({
    change: 'fix_request',
    sentence:
      'import a file as GET /_account/export writes it (decision 022 says what it may hold)',
  }),
  quota_exceeded: () => ({
    change: 'fix_request',
    sentence: 'free space first (delete keys or procedures): the account is at its quota',
  }),
  too_many_secrets: () => ({
    change: 'operator',
    sentence:
      'the account holds as many secrets as it may: reset it (POST /_account/reset) to go back to its starting secrets',
  }),
  too_many_faults: () => ({
    change: 'operator',
    sentence:
      'the account has as many fault rules set as it may: clear some (POST /_account/faults/clear) first',
  }),
  gone: () => ({
    change: 'operator',
    sentence:
      "the account's history no longer keeps that exchange: go back to before a later one (GET /_account/branches says the oldest it reaches)",
  }),
  too_many_branches: () => ({
    change: 'operator',
    sentence:
      'the account keeps as many branches as it may: delete one (POST /_account/branches/<id>/delete) first',
  }),
  store_closed: () => ({
    change: 'operator',
    sentence:
      "the account's data was closed under the call: the account was deleted (make another), or the server is stopping",
  }),
  contention: () => ({
    change: 'wait',
    sentence:
      'other requests kept changing what this one read: send it again (retry-after says when)',
  }),
  unauthorized: () => ({
    change: 'send_token',
    sentence: 'send a credential that reaches the call',
  }),
  forbidden: () => ({
    change: 'operator',
    sentence: 'the account blocks the call; nothing in the call itself would change that',
  }),
  refused: (message) => ({
    change: 'operator',
    sentence: `the server refused the request before any account answered it${message ? ` (${message})` : ''}: send its control token, a Host it names, or an account it holds`,
  }),
  injected_fault: () => ({
    change: 'operator',
    sentence:
      'a fault set up through the control plane answered: clear it (POST /_account/faults/clear), or let it be used up',
  }),
  store_conflict: () => ({
    change: 'operator',
    sentence: 'another write changed the account at the same moment: send the call again',
  }),
  disk_full: () => ({
    change: 'operator',
    sentence: "the server's disk is full: free space on it, then send the call again",
  }),
  data_damaged: () => ({
    change: 'operator',
    sentence: "the server's data file is damaged: restore it from an export",
  }),
  data_unavailable: () => ({
    change: 'operator',
    sentence: "the server's data file cannot be read: check it, then send the call again",
  }),
  unavailable: () => ({
    change: 'operator',
    sentence: "the server's database cannot be reached: send the call again once it is back",
  }),
  fault: () => ({
    change: 'operator',
    sentence: 'the engine faulted: nothing in the call should cause that, so it is a bug to report',
  }),
}

/** Every code with a counterfactual, credential reasons included. */
export const COUNTERFACTUAL_CODES: readonly string[] = [
  'missing',
  'malformed',
  'unknown_token',
  'bad_signature',
  'expired',
  'secret_rolled',
  'secret_unknown',
  ...Object.keys(BY_CODE),
]

/** The change for an error code, from its message where it names an argument. */
export function forCode(code: string, message: string | undefined): Counterfactual {
  const make = BY_CODE[code] ?? BY_CODE.invalid!
  return { code, ...make(message) }
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
  return forCode(typeof code === 'string' && code in BY_CODE ? code : 'fault', undefined)
}
