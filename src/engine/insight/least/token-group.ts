import type { SimulateCall } from '../types'
import type { Loose } from './trace-fields'

/** A call to replay: as simulate takes it, with when it was made and how it was answered. */
export interface ReplayCall {
  call: SimulateCall
  /** The latest moment it was made, when known. */
  at: number | null
  status: number
  message: string | null
  /** What tells it from another call at the same URL: its content type and body as kept. */
  type: string | null
  body: string | null
  base64: boolean
}

/** An endpoint call a trace shows let in, and what it touched, for the proof's check. */
export interface TracedUse {
  endpoint: string
  /** The ability that let it in, as written. */
  ability: string
  target?: { bucket: string; key: string }
}

/** Where one granting ability let a key-value endpoint in: buckets, each with its keys' common prefix. */
export interface Regions {
  buckets: Map<string, string>
  /** Past `MAX_BUCKETS`, or a call whose target the trace does not say: the ability's own limits are kept. */
  whole: boolean
}

/** One endpoint a token was let into. */
export interface EndpointState {
  calls: number
  /** By granting ability (as written): where it let this endpoint in. */
  regions: Map<string, Regions>
}

/** Everything the journal says of one token. */
export interface TokenGroup {
  key: string
  /** What its credential trace said, as written, to find its other requests by. */
  raw: RawIdentity
  secretId: string | null
  abilities: string[] | null
  insecure: boolean | null
  createdAt: number | null
  expiresAt: number | null
  inJournal: boolean
  /** The order it was first met in the journal, to tell tokens apart stably. */
  seen: number
  calls: number
  allowed: number
  refused: number
  failed: number
  firstAt: number | null
  lastAt: number | null
  /** The last request its credential was accepted for: its ttl must reach it. */
  lastAccepted: number | null
  endpoints: Map<string, EndpointState>
  /** By endpoint, then by code. */
  refusals: Map<string, Map<string, { endpoint: string; code: string; calls: number }>>
  minted: boolean
  /** Distinct calls by URL (the URL names the endpoint and holds the query). */
  replay: Map<string, ReplayCall[]>
  replayed: number
  /** Distinct calls past `MAX_REPLAYED`, and calls whose body was cut (not replayable). */
  unreplayed: number
  /** The accepted call made last, kept to replay whatever the bound. */
  latest: ReplayCall | undefined
  /** Each endpoint call let in, once per ability (and bucket and key it touched). */
  checks: TracedUse[]
  /** What `checks` holds, by endpoint, then by ability: without a target, and by bucket and key. */
  checkIndex: Map<string, Map<string, { bare: boolean; keys: Map<string, Set<string>> }>>
  checked: number
  /** Requests that made more calls than their trace keeps. */
  partialTraces: number
  /** The authorization header of its last request, to keep its token once (never reported). */
  lastBearer: string | null
}

/** The fields of a credential trace that tell tokens apart, as written. */
export interface RawIdentity {
  secretId: unknown
  abilities: unknown
  insecure: unknown
  expiresAt: unknown
}

/** Whether a credential trace names the same token as `raw` (its time aside: compared before). */
export function sameToken(raw: RawIdentity, credential: Loose): boolean {
  if (
    raw.secretId !== credential.secretId ||
    raw.insecure !== credential.insecure ||
    raw.expiresAt !== credential.expiresAt
  ) {
    return false
  }
  const [a, b] = [raw.abilities, credential.abilities]
  if (!Array.isArray(a) || !Array.isArray(b)) return a === b
  return a.length === b.length && a.every((ability, i) => ability === b[i])
}

/** A group for a token first met, its counts at zero. */
export function newGroup(
  key: string,
  identity: Pick<TokenGroup, 'secretId' | 'abilities' | 'insecure' | 'createdAt' | 'expiresAt'>,
  seen: number,
  credential: Loose,
): TokenGroup {
  const { secretId, abilities, insecure, expiresAt } = credential
  return {
    key,
    raw: {
      secretId,
      abilities: Array.isArray(abilities) ? [...(abilities as unknown[])] : abilities,
      insecure,
      expiresAt,
    },
    ...identity,
    inJournal: false,
    seen,
    calls: 0,
    allowed: 0,
    refused: 0,
    failed: 0,
    firstAt: null,
    lastAt: null,
    lastAccepted: null,
    endpoints: new Map(),
    refusals: new Map(),
    minted: false,
    replay: new Map(),
    replayed: 0,
    unreplayed: 0,
    latest: undefined,
    checks: [],
    checkIndex: new Map(),
    checked: 0,
    partialTraces: 0,
    lastBearer: null,
  }
}
