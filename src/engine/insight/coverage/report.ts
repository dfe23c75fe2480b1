import type { CoverageTally, CredentialKind } from './tally'

/** An authorization refusal a client's tests may meet, and when it is one they should meet. */
interface RefusalCode {
  code: string
  /** What handling it shows, for the flag when it was never met. */
  means: string
  relevant: (tally: CoverageTally, held: boolean) => boolean
}

const anyLimit = (tally: CoverageTally) => tally.abilities.some((a) => a.ability.includes('?'))

/** The refusals of the engine's authorization, in the order the report lists them. */
export const REFUSAL_CODES: readonly RefusalCode[] = [
  {
    code: 'missing_ability',
    means: 'an authorization refused an endpoint outside its abilities',
    relevant: (_t, held) => held,
  },
  {
    code: 'outside_limit',
    means: 'a key-value call outside its bucket or prefix limits',
    relevant: anyLimit,
  },
  {
    code: 'expired',
    means: 'an authorization used after its expiry or ttl',
    relevant: (t) => t.mintedWith.expiry > 0 || t.cells.some((c) => (c.dimensions.expiry ?? 0) > 0),
  },
  {
    code: 'secret_rolled',
    means: 'a token used after its secret was rolled',
    relevant: (_t, held) => held,
  },
  {
    code: 'insecure_ability',
    means: "auth.create asked for an insecure ability without `insecure: true'",
    relevant: (t) => t.mintedWith.insecure > 0,
  },
  { code: 'missing', means: 'a call sent with no token', relevant: () => false },
  {
    code: 'malformed',
    means: 'an authorization header not of the form bearer <token>',
    relevant: () => false,
  },
  { code: 'unknown_token', means: 'a token this account does not know', relevant: () => false },
  {
    code: 'bad_signature',
    means: 'an authorization changed or signed elsewhere',
    relevant: () => false,
  },
  {
    code: 'secret_unknown',
    means: 'an authorization whose secret is gone from the account',
    relevant: () => false,
  },
]

/** Something the tests never exercised. */
export interface CoverageFlag {
  kind: 'ability_never_allowed' | 'ability_never_refused' | 'code_never_met' | 'only_secret'
  /** The ability, code or endpoint. */
  subject: string
  sentence: string
}

/** One endpoint: its calls by credential and by outcome. */
export interface EndpointCoverage {
  endpoint: string
  calls: number
  credentials: Record<CredentialKind, number>
  outcomes: Record<string, number>
  dimensions: Record<string, number>
  /** Every call it got was made with a secret key. */
  onlySecret: boolean
}

/** The coverage report: the tally, and what it says. Holds no token and no secret. */
export interface CoverageReport extends CoverageTally {
  /** Covered items over items, in percent, rounded down to a tenth. */
  score: number
  covered: number
  items: number
  endpoints: EndpointCoverage[]
  refusals: Array<{ code: string; met: number; relevant: boolean; means: string }>
  flags: CoverageFlag[]
}

/**
 * What a tally says. The score counts, as one item each: every ability the client held or
 * minted, exercised allowed (by a call, or shown by a passing `toReach`); the same, exercised
 * refused (or shown by a passing `.not.toReach`); every refusal code relevant to what
 * it did (`missing_ability` and `secret_rolled` once it held an authorization, `outside_limit`
 * once an ability had limits, `expired` once one had an expiry, `insecure_ability` once it
 * minted with `insecure: true`), met; every endpoint it called, called with something other than
 * a secret key.
 */
export function coverageReport(tally: CoverageTally): CoverageReport {
  const endpoints = new Map<string, EndpointCoverage>()
  for (const cell of tally.cells) {
    let endpoint = endpoints.get(cell.endpoint)
    if (!endpoint) {
      endpoint = {
        endpoint: cell.endpoint,
        calls: 0,
        credentials: { secret: 0, authorization: 0, none: 0, unknown: 0 },
        outcomes: {},
        dimensions: {},
        onlySecret: false,
      }
      endpoints.set(cell.endpoint, endpoint)
    }
    endpoint.calls += cell.count
    endpoint.credentials[cell.credential] += cell.count
    endpoint.outcomes[cell.outcome] = (endpoint.outcomes[cell.outcome] ?? 0) + cell.count
    for (const [dimension, times] of Object.entries(cell.dimensions)) {
      endpoint.dimensions[dimension] = (endpoint.dimensions[dimension] ?? 0) + (times ?? 0)
    }
  }
  for (const endpoint of endpoints.values()) {
    endpoint.onlySecret = endpoint.calls > 0 && endpoint.credentials.secret === endpoint.calls
  }
  const held =
    tally.abilities.length > 0 || tally.cells.some((c) => c.credential === 'authorization')
  const flags: CoverageFlag[] = []
  let items = 0
  let covered = 0
  for (const use of tally.abilities) {
    items += 2
    // A passing policy matcher shows what a call would have: it counts, apart from the calls.
    if (use.allowed > 0 || use.checked.allowed > 0) covered++
    else
      flags.push({
        kind: 'ability_never_allowed',
        subject: use.ability,
        sentence: `\`${use.ability}' never let a call in: no test used it for what it grants, nor showed it with \`toReach'`,
      })
    if (use.refused > 0 || use.checked.refused > 0) covered++
    else
      flags.push({
        kind: 'ability_never_refused',
        subject: use.ability,
        sentence: `no call was refused to a token holding \`${use.ability}': no test showed what it does not reach, nor \`.not.toReach'`,
      })
  }
  const refusals = REFUSAL_CODES.map(({ code, means, relevant }) => {
    const count = countCode(tally, code)
    return { code, met: count, relevant: relevant(tally, held), means }
  })
  for (const refusal of refusals) {
    if (!refusal.relevant) continue
    items++
    if (refusal.met > 0) covered++
    else
      flags.push({
        kind: 'code_never_met',
        subject: refusal.code,
        sentence: `never met \`${refusal.code}' (${refusal.means}): how the client handles it was never tested`,
      })
  }
  for (const endpoint of endpoints.values()) {
    // Minting and managing procedures are a secret's work: calling them only so is right.
    if (meantForSecret(endpoint.endpoint)) continue
    items++
    if (!endpoint.onlySecret) covered++
    else
      flags.push({
        kind: 'only_secret',
        subject: endpoint.endpoint,
        sentence: `\`${endpoint.endpoint}' was only ever called with a secret key: no test called it as an authorization would`,
      })
  }
  return {
    ...tally,
    score: items === 0 ? 0 : Math.floor((covered / items) * 1000) / 10,
    covered,
    items,
    endpoints: [...endpoints.values()],
    refusals,
    flags,
  }
}

/**
 * `auth.create` and the stored-procedure package's `create`, `update` and `delete`: insecure
 * endpoints, which a client rightly calls with its secret key alone.
 */
const meantForSecret = (endpoint: string) =>
  endpoint === 'auth.create' ||
  (/^[^.]+\.(create|update|delete)$/.test(endpoint) && !endpoint.startsWith('keyv.'))

/** Calls answered with `code`. */
const countCode = (tally: CoverageTally, code: string) =>
  tally.cells.reduce((sum, cell) => sum + (cell.outcome === code ? cell.count : 0), 0)
