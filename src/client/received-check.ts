/**
 * `toHaveReceived`'s check, the same under Vitest, Jest and Playwright: how many requests
 * matching a filter the journal holds, against how many were expected, and a message that
 * shows the near misses.
 */
import {
  FILTER_KEYS,
  matches,
  mismatches,
  shown,
  TOKEN_KINDS,
  type Mismatch,
  type ReceivedRequest,
  type RequestFilter,
} from './journal'

/** How many of the requests a `toHaveReceived` expects: exactly, or at least / at most. */
export interface ReceivedExpectation extends Omit<RequestFilter, 'endpoint'> {
  /** Exactly this many; without it (and without `atLeast`/`atMost`), at least one. */
  times?: number
  atLeast?: number
  atMost?: number
}

/** The keys `toHaveReceived` reads; any other is a mistake it names. */
const EXPECTATION_KEYS = [
  'times',
  'atLeast',
  'atMost',
  ...FILTER_KEYS.filter((key) => key !== 'endpoint'),
]

function checkExpectation(expected: object): void {
  const known: readonly string[] = EXPECTATION_KEYS
  const unknown = Object.keys(expected).filter((key) => !known.includes(key))
  if (unknown.length > 0) {
    throw new TypeError(
      `toHaveReceived: unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `\`${key}'`).join(', ')}; it reads ${known.join(', ')}`,
    )
  }
  const { token } = expected as RequestFilter
  if (token !== undefined && !TOKEN_KINDS.includes(token)) {
    throw new TypeError(
      `toHaveReceived: \`token' is the token's role, ${TOKEN_KINDS.join(', ')}; not ${JSON.stringify(token)}`,
    )
  }
  for (const key of ['times', 'atLeast', 'atMost'] as const) {
    const value = (expected as Record<string, unknown>)[key]
    if (value !== undefined && !(Number.isInteger(value) && (value as number) >= 0)) {
      throw new TypeError(`toHaveReceived: \`${key}' must be a whole number, 0 or more`)
    }
  }
}

function describeFilter(endpoint: string | RegExp, expected: ReceivedExpectation): string {
  const parts = [typeof endpoint === 'string' ? endpoint : String(endpoint)]
  const { status, token, format, args, fault, headers } = expected
  if (status !== undefined) parts.push(`with status ${[status].flat().join(' or ')}`)
  if (token !== undefined) parts.push(`with ${token === 'none' ? 'no token' : `a ${token}`}`)
  if (format !== undefined) parts.push(`as ${format}`)
  if (args !== undefined) parts.push(`with arguments ${shown(args)}`)
  if ('input' in expected) parts.push(`with input ${shown(expected.input)}`)
  if (headers !== undefined) parts.push(`with headers ${shown(headers)}`)
  if ('body' in expected) parts.push(`with body ${shown(expected.body)}`)
  if (typeof fault === 'string') parts.push(`met by a ${fault} fault`)
  else if (fault !== undefined) parts.push(fault ? 'met by a fault' : 'not met by a fault')
  return parts.join(' ')
}

const line = (request: ReceivedRequest, differs: Mismatch[]) => {
  const who = request.token === 'none' ? 'no token' : request.token
  const args = Object.keys(request.args).length > 0 ? ` args ${JSON.stringify(request.args)}` : ''
  const input = 'input' in request ? ` input ${JSON.stringify(request.input)}` : ''
  const message = request.message ? ` "${request.message}"` : ''
  const fields = differs.map((d) => d.field)
  const off =
    differs.length > 0 ? `  ← ${fields.join(', ')} differ${differs.length === 1 ? 's' : ''}` : ''
  // Per field, what was asked against what arrived (WireMock's near-miss diff).
  const diff = differs.map(
    (d) => `\n      ${d.field}: expected ${d.expected}, received ${d.received}`,
  )
  const instead = request.counterfactual
    ? `\n      it would have passed with: ${request.counterfactual.sentence}`
    : ''
  return `  #${request.id} ${request.endpoint ?? request.url} → ${request.status}${message} (${who}, ${request.format})${args}${input}${off}${diff.join('')}${instead}`
}

/**
 * Whether the requests hold what `toHaveReceived(endpoint, expected)` asks, and the message
 * either way. When they do not, it lists the requests that did arrive, nearest first (the
 * fewest fields differing), the way WireMock's near-miss report does.
 */
export function checkReceived(
  requests: readonly ReceivedRequest[],
  endpoint: string | RegExp,
  expected: ReceivedExpectation = {},
): { pass: boolean; message: string } {
  checkExpectation(expected)
  const { times, atLeast, atMost, ...fields } = expected
  const filter: RequestFilter = { ...fields, endpoint }
  const found = requests.filter((request) => matches(request, filter))
  const count = found.length
  const pass =
    times !== undefined
      ? count === times
      : (atLeast === undefined ? atMost !== undefined || count >= 1 : count >= atLeast) &&
        (atMost === undefined || count <= atMost)
  const wanted =
    times !== undefined
      ? `${times}`
      : atLeast !== undefined && atMost !== undefined
        ? `${atLeast} to ${atMost}`
        : atMost !== undefined
          ? `at most ${atMost}`
          : `at least ${atLeast ?? 1}`
  const what = describeFilter(endpoint, fields)
  if (pass) {
    return { pass, message: `expected not ${wanted} request(s) to ${what}, received ${count}` }
  }
  const nearest = requests
    .map((request) => ({ request, differs: mismatches(request, filter) }))
    .sort((a, b) => a.differs.length - b.differs.length || b.request.id - a.request.id)
    .slice(0, 10)
  const arrived =
    requests.length === 0
      ? 'No request arrived at all.'
      : `Requests that did arrive, nearest first (${Math.min(10, requests.length)} of ${requests.length}):\n${nearest
          .map(({ request, differs }) => line(request, differs))
          .join('\n')}`
  // The account's history keeps each of them: stand just before the nearest, and try again.
  const first = nearest[0]?.request.id
  const back =
    first === undefined
      ? ''
      : `\nTo stand just before #${first} and try again: service.rewind(${first}) (POST /_account/rewind {"before": ${first}}).`
  return {
    pass,
    message: `expected ${wanted} request(s) to ${what}, received ${count}.\n${arrived}${back}`,
  }
}
