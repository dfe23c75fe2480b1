// The shapes least privilege answers with (decision 090), over the control plane, the kit and
// the command line alike. Plain JSON. None holds a token or a secret key: a token is named by
// its place in the journal (`token 1`) and described by what its calls' traces say of it.

import type { DiffItem } from '../types'

/** What the journal says of the token as it was minted. */
export interface MintedToken {
  /** Its abilities, as written; `null` when no trace of its calls says (minted elsewhere, read badly). */
  abilities: string[] | null
  insecure: boolean | null
  /** Unix seconds on the virtual clock; `null` when unknown. */
  createdAt: number | null
  expiresAt: number | null
  /** The journal holds the `auth.create` that made it. */
  inJournal: boolean
}

/** One endpoint the token was let into, and where in the key-value store. */
export interface EndpointUse {
  endpoint: string
  /** Calls of it let in (at any depth of a composition). */
  calls: number
  /**
   * For a key-value endpoint: each bucket used, with the longest key prefix its keys (or scan
   * prefixes) share; `null` when the journal does not say (a trace written before it recorded
   * them).
   */
  regions?: Array<{ bucket: string; prefix: string }> | null
}

/** A refusal the token met in the journal: the client may rely on it, so it is kept. */
export interface RefusalMet {
  endpoint: string
  code: string
  calls: number
}

/** What the token did, as the journal shows it. */
export interface TokenUse {
  /** Requests made with it. */
  calls: number
  /** Answered 200, refused (401), or let in and failed (another error). */
  allowed: number
  refused: number
  failed: number
  /** First and last request, Unix seconds on the virtual clock; `null` when unknown. */
  firstAt: number | null
  lastAt: number | null
  endpoints: EndpointUse[]
  refusals: RefusalMet[]
  /** It minted authorizations (`auth.create` let in): a child never outlives it. */
  minted: boolean
}

/** The narrowest `auth.create` arguments under which every call that succeeded still succeeds. */
export interface Suggestion {
  abilities: string[]
  insecure: boolean
  /** Seconds from minting; `null` for no expiry (the minted token had none, and times are unknown). */
  ttl: number | null
  /** As `auth.create` takes them. */
  args: { abilities: string[]; insecure?: true; ttl?: number }
  /** What was kept wider than the bare use, and why: one sentence each. */
  notes: string[]
}

/** A way the minted token reaches beyond its use. */
export interface LeastPrivilegeFlag {
  kind:
    | 'insecure_unused'
    | 'package_for_endpoints'
    | 'keyv_unlimited'
    | 'keyv_wider'
    | 'ability_unused'
    | 'never_expires'
    | 'ttl_beyond_use'
  /** The minted ability it is about, as written. */
  ability?: string
  sentence: string
}

/** One call of the proof whose answer moved under the suggestion. */
export interface ProofDifference {
  endpoint: string
  at: number
  minted: { status: number; code: string | null; message: string | null }
  suggested: { status: number; code: string | null; message: string | null }
}

/** How the suggestion was proven with the engine's own decisions. */
export interface LeastPrivilegeProof {
  /**
   * `proven`: every call replayed gave the same answer, and the suggestion reaches nothing the
   * minted token does not. `failed`: one of those did not hold (listed). `unavailable`: the
   * account holds no live secret to replay under.
   */
  status: 'proven' | 'failed' | 'unavailable'
  sentence: string
  /** Distinct calls the token made, and how many were replayed (at most `MAX_REPLAYED`). */
  calls: number
  replayed: number
  /** Calls whose replay under the minted token did not give the journal's status (the account changed since). */
  notReproduced: number
  /** Endpoint calls of the traces, each checked against the suggestion by the evaluator's decision. */
  traced: number
  /** Calls the minted token was let in for and the suggestion is refused. */
  newRefusals: ProofDifference[]
  /** Other calls answered differently (status or message). */
  changedAnswers: ProofDifference[]
  /** What the suggestion reaches that the minted token does not: must be empty. */
  gained: DiffItem[]
  /** What the minted token reaches that the suggestion does not. */
  lost: DiffItem[]
}

/** How far the minted token reaches beyond its use, from the proof's diff. */
export interface Excess {
  /** Endpoints it reaches that the suggestion does not. */
  endpoints: number
  /** Endpoints of the catalogue it reaches in all: the suggestion takes `endpoints` of them away. */
  reached: number
  /** Key-value regions (a bucket, a key) it reaches that the suggestion does not. */
  limits: number
  /** It works later than the suggestion would. */
  time: boolean
}

/** One token of the journal: what it was, what it did, the narrowest token for that, the proof. */
export interface TokenLeastPrivilege {
  /** `token 1`, `token 2`, … in the order of their first request. */
  label: string
  /** The secret it hangs from (its id, never its key). */
  secretId: string | null
  minted: MintedToken
  use: TokenUse
  suggestion: Suggestion
  flags: LeastPrivilegeFlag[]
  /** `null` when the proof was not run (past `MAX_PROVEN` tokens, or unavailable). */
  excess: Excess | null
  proof: LeastPrivilegeProof | null
}

/** `POST /_account/least-privilege` and `service-playground tokens`: every token of a journal. */
export interface LeastPrivilegeReport {
  format: 'service-playground-tokens'
  version: 1
  /** Journal entries read (requests at an endpoint). */
  entries: number
  /** Requests made with a secret key: it reaches everything by design, and is not analysed. */
  secretCalls: number
  /** Requests with no token, or a token the engine did not accept before any call. */
  otherCalls: number
  /** The tokens, those reaching furthest beyond their use first. */
  tokens: TokenLeastPrivilege[]
  /** Requests made with tokens past the first `MAX_TOKENS`, counted and not analysed. */
  unanalysed: number
  /** The most endpoints any token reaches beyond its use (what `--max-excess` gates on). */
  maxExcess: number
  /** Why the report is short of the journal, one sentence each (bounds met, entries skipped). */
  notes: string[]
}
