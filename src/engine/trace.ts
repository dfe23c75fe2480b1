import type { Presented } from './auth/credentials'
import { ServiceError } from './errors'
import { MAX_TRACED_CALLS, type CallTrace } from './runtime/trace'

export type { CallTrace } from './runtime/trace'

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
  outcome: { status: number; code: string | null; message: string | null }
}

export { MAX_TRACED_CALLS }

const at = (seconds: number) => `${new Date(seconds * 1000).toISOString()} (virtual clock)`

/** The credential part of a trace, from what the `authorization` header held. */
export function credentialTrace(presented: Presented): CredentialTrace {
  const base: CredentialTrace = {
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
  }
  switch (presented.state) {
    case 'missing':
      return {
        ...base,
        kind: 'none',
        reason: 'missing',
        explanation: 'no token: send the header `authorization: bearer <token>`',
      }
    case 'malformed':
      return {
        ...base,
        kind: 'none',
        reason: 'malformed',
        explanation: 'the authorization header is not of the form `bearer <token>`',
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
  return { ...known, reason: presented.reason, explanation: refusal(presented.reason, known) }
}

function refusal(reason: string, trace: CredentialTrace): string {
  switch (reason) {
    case 'unknown_token':
      return 'no secret of this account has this key, and it is not a signed authorization'
    case 'bad_signature':
      return "the token's signature does not verify: a byte of it was changed, or another account (or this one before a reset) signed it"
    case 'expired':
      return `the authorization expired at ${at(trace.expiresAt!)}`
    case 'secret_unknown':
      return `its secret \`${trace.secretId}' is not in this account any more`
    case 'secret_rolled':
      return trace.kind === 'secret'
        ? `secret \`${trace.secretId}' was rolled; it stopped working at ${at(trace.secretExpiresAt!)}`
        : `its secret \`${trace.secretId}' was rolled; every authorization from it died at ${at(trace.secretExpiresAt!)}`
    default:
      return reason
  }
}

/** How a request ended: its status, and for an error its code and message. */
export function outcomeOf(status: number, error?: unknown): RequestTrace['outcome'] {
  if (error === undefined) return { status, code: null, message: null }
  if (error instanceof ServiceError) return { status, code: error.code, message: error.message }
  return { status, code: 'fault', message: 'internal error' }
}
