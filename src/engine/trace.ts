// The decision trace: what the engine decided for one request (its credential, each call,
// its outcome), gathered while it answers and shown by the playground as it is.

import type { Presented } from './auth/credentials'
import { clockTime } from './clock'
import { ServiceError } from './errors'
import { counterfactualOf, forCredential, type Counterfactual } from './auth/counterfactual'

export type { Counterfactual } from './auth/counterfactual'

/**
 * What one endpoint call inside a request decided: which grant let it run, or exactly why it
 * was refused or failed. The engine records these while it evaluates; the playground only
 * shows them.
 */
export interface CallTrace {
  endpoint: string
  /** How many calls enclose this one: 0 for the call at the request's URL. */
  depth: number
  /**
   * `allowed`: it ran to its end. `refused`: no ability (or no ability's key-value limit) let
   * the caller in. `failed`: it was let in and then answered an error of its own. `aborted`:
   * a call inside it failed, and its error is that call's.
   */
  decision: 'allowed' | 'refused' | 'failed' | 'aborted'
  /** What let it in: `secret`, `ability`, `procedure` (a stored procedure's authority). */
  grant: 'secret' | 'ability' | 'procedure' | null
  /** The ability that granted it, as written (limits included). */
  ability: string | null
  /**
   * For a key-value call an authorization made: the bucket and the key (for `keyv.scan`, the
   * prefix) its limits were checked against; absent for other calls.
   */
  target?: { bucket: string; key: string }
  /** The error's machine-readable code, when it did not end as allowed. */
  code: string | null
  status: number | null
  /** One sentence a person reads: why it ran, or why it stopped. */
  explanation: string
  /**
   * What the call was given that it accepted but that looks like a mistake, one sentence
   * each (an `expiry` in milliseconds, say); absent when there is none.
   */
  warnings?: string[]
  /**
   * For a call that did not end as allowed: the smallest change that would have let it in
   * (decision 056); absent otherwise, and on an `aborted` call (the call inside has it).
   */
  counterfactual?: Counterfactual
}

const explanations = new WeakMap<ServiceError, string>()

/**
 * Gives `error` a sentence for the decision trace that says more than its wire message, which
 * stays as the real service words it (a dead cursor is only `cursor is invalid` on the wire;
 * the trace says its secret was rolled, and when). Returns the error, to be thrown.
 */
export function explained<E extends ServiceError>(error: E, explanation: string): E {
  explanations.set(error, explanation)
  return error
}

/** Calls traced per request; a request may make thousands, the rest are counted. */
export const MAX_TRACED_CALLS = 200

/** Collects the calls of one request, in the order they start. */
export class CallTracer {
  readonly calls: CallTrace[] = []
  /** Calls that were not kept, past `MAX_TRACED_CALLS`. */
  dropped = 0
  private depth = 0
  /** Errors already put down to a call, made at the first failure. */
  private attributed: WeakSet<object> | undefined

  /** Forgets every call: the request runs again from the start (see `isolation.ts`). */
  restart(): void {
    this.calls.length = 0
    this.dropped = 0
    this.depth = 0
    this.attributed = undefined
  }

  /** A call starts; `undefined` once the trace is full (the call still runs). */
  enter(endpoint: string): CallTrace | undefined {
    const depth = this.depth++
    if (this.calls.length >= MAX_TRACED_CALLS) {
      this.dropped++
      return undefined
    }
    const entry: CallTrace = {
      endpoint,
      depth,
      decision: 'allowed',
      grant: null,
      ability: null,
      code: null,
      status: null,
      explanation: '',
    }
    this.calls.push(entry)
    return entry
  }

  /** The call ended with a value. */
  leave(): void {
    this.depth--
  }

  /**
   * The call ended with `error`. The call the error started in is `refused` or `failed`; every
   * call around it, `aborted`.
   */
  fail(entry: CallTrace | undefined, error: unknown): void {
    this.depth--
    if (!entry) return
    const known = error instanceof ServiceError ? error : undefined
    if (typeof error === 'object' && error !== null && this.attributed?.has(error)) {
      entry.decision = 'aborted'
      entry.explanation = `stopped: a call inside \`${entry.endpoint}' failed`
      return
    }
    if (typeof error === 'object' && error !== null) (this.attributed ??= new WeakSet()).add(error)
    entry.code = known?.code ?? 'fault'
    entry.status = known?.status ?? 500
    if (entry.decision !== 'refused') {
      entry.decision = 'failed'
      entry.explanation =
        (known && (explanations.get(known) ?? known.message)) ?? 'the engine faulted'
      entry.counterfactual = counterfactualOf(error)
    }
  }
}

/** Who a request's token turned out to be, and whether it was let in. */
export interface CredentialTrace {
  kind: 'none' | 'secret' | 'authorization' | 'unknown'
  decision: 'accepted' | 'refused'
  /** Why it was refused: `missing`, `malformed`, `unknown_token`, `bad_signature`, `expired`, `secret_rolled`, `secret_unknown`. */
  reason: string | null
  /** The root secret every authorization descends from. */
  secretId: string | null
  abilities: string[] | null
  insecure: boolean | null
  /** Unix seconds on the virtual clock. */
  createdAt: number | null
  expiresAt: number | null
  /** When the root secret dies (it was rolled). */
  secretExpiresAt: number | null
  explanation: string
  /** For a refused token: the change that would have let it in (decision 056). */
  counterfactual?: Counterfactual
}

/** Everything the engine decided for one request: its credential, each call, its outcome. */
export interface RequestTrace {
  /** The endpoint at the request's URL, when the path names one. */
  endpoint: string | null
  /** `null` when the request was answered before its token was read (a bad body size, say). */
  credential: CredentialTrace | null
  calls: CallTrace[]
  /** Calls made past the first `MAX_TRACED_CALLS`, not kept. */
  droppedCalls: number
  outcome: {
    status: number
    code: string | null
    message: string | null
    /** For an error: the smallest change that would have avoided it (decision 056). */
    counterfactual?: Counterfactual
  }
}

/** A time on the virtual clock, as the trace writes one. */
export const at = clockTime

/** A credential's trace with nothing known of it but `fields`: an unknown token, refused. */
export const credentialOf = (fields: Partial<CredentialTrace>): CredentialTrace => ({
  kind: 'unknown',
  decision: 'refused',
  reason: null,
  secretId: null,
  abilities: null,
  insecure: null,
  createdAt: null,
  expiresAt: null,
  secretExpiresAt: null,
  explanation: '',
  ...fields,
})

/**
 * The credential part of a trace, from what the `authorization` header held. `checked` is the
 * refused token's counterfactual as the call's own run checked it (decision 087), when it was.
 */
export function credentialTrace(presented: Presented, checked?: Counterfactual): CredentialTrace {
  const base = credentialOf({})
  switch (presented.state) {
    case 'missing':
    case 'malformed': {
      const refused: CredentialTrace = {
        ...base,
        kind: 'none',
        reason: presented.state,
        explanation:
          presented.state === 'missing'
            ? 'no token: send the header `authorization: bearer <token>`'
            : 'the authorization header is not of the form `bearer <token>`',
      }
      return { ...refused, counterfactual: forCredential(refusedOf(refused)) }
    }
  }
  const details = presented.details
  const known: CredentialTrace = details
    ? {
        ...base,
        kind: details.kind,
        secretId: details.secretId,
        abilities: details.abilities ?? null,
        insecure: details.insecure ?? null,
        createdAt: details.createdAt ?? null,
        expiresAt: details.expiresAt,
        secretExpiresAt:
          details.kind === 'secret' ? details.expiresAt : (details.secretExpiresAt ?? null),
      }
    : base
  if (presented.state === 'usable') {
    const explanation =
      known.kind === 'secret'
        ? `the secret key of \`${known.secretId}', which reaches every endpoint`
        : `an authorization from secret \`${known.secretId}' holding ${(known.abilities ?? []).map((a) => `\`${a}'`).join(', ')}; ${known.expiresAt === null ? 'it never expires' : `it expires at ${at(known.expiresAt)}`}`
    return { ...known, decision: 'accepted', explanation }
  }
  const refused = { ...known, reason: presented.reason }
  return {
    ...refused,
    explanation: refusal(presented.reason, known),
    counterfactual: checked ?? forCredential(refusedOf(refused)),
  }
}

const refusedOf = (trace: CredentialTrace) => ({
  kind: trace.kind,
  reason: trace.reason ?? 'unknown_token',
  secretId: trace.secretId,
  expiresAt: trace.expiresAt,
  secretExpiresAt: trace.secretExpiresAt,
})

function refusal(reason: string, trace: CredentialTrace): string {
  switch (reason) {
    case 'unknown_token':
      return 'no secret of this account has this key, and it is not a signed authorization'
    case 'bad_signature':
      return "the token's signature does not verify: a byte of it was changed, or another account (or this one before a reset) signed it"
    case 'expired':
      // Its secret's roll, when one came (or comes) later, is said after: the expiry came first.
      return `the authorization expired at ${at(trace.expiresAt!)}${
        trace.secretExpiresAt !== null && trace.secretExpiresAt > trace.expiresAt!
          ? `, before the roll of its secret \`${trace.secretId}' took effect (at ${at(trace.secretExpiresAt)})`
          : ''
      }`
    case 'secret_unknown':
      return `its secret \`${trace.secretId}' is not in this account any more`
    case 'secret_rolled':
      return trace.kind === 'secret'
        ? `secret \`${trace.secretId}' was rolled; it stopped working at ${at(trace.secretExpiresAt!)}`
        : `its secret \`${trace.secretId}' was rolled; every authorization from it died at ${at(trace.secretExpiresAt!)}${
            trace.expiresAt !== null && trace.expiresAt > trace.secretExpiresAt!
              ? `, before its own expiry (at ${at(trace.expiresAt)})`
              : ''
          }`
    default:
      return reason
  }
}

/**
 * How a request ended: its status, and for an error its code, message and the change that would
 * have avoided it (a refused credential's, when the token was refused).
 */
export function outcomeOf(
  status: number,
  error?: unknown,
  credential?: CredentialTrace | null,
): RequestTrace['outcome'] {
  if (error === undefined) return { status, code: null, message: null }
  const counterfactual =
    credential?.decision === 'refused' && credential.counterfactual
      ? credential.counterfactual
      : counterfactualOf(error)
  if (error instanceof ServiceError) {
    return { status, code: error.code, message: error.message, counterfactual }
  }
  return { status, code: 'fault', message: 'internal error', counterfactual }
}
