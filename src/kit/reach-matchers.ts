// `toReach` and `toBeNarrowerThan`: policy tests over tokens, answered by the service's own
// reach, simulate and diff (decision 055), for Vitest and Playwright alike.
import type { DiffReport, ReachReport, SimulateCall, SimulateReport } from '../engine/insight'

/** What the matchers ask of a running service. */
export interface InsightSource {
  reach(token: string, at?: number): Promise<ReachReport>
  simulate(token: string, calls: SimulateCall[], at?: number): Promise<SimulateReport>
  diff(a: string, b: string, at?: number): Promise<DiffReport>
}

/** Where in the key-value store: a bucket, a key prefix, or one key. */
export interface ReachWhere {
  bucket?: string
  prefix?: string
  key?: string
}

/** The services running now, newest last: the matchers ask the one that knows the token. */
const running: InsightSource[] = []

export function registerInsight(source: InsightSource): () => void {
  running.push(source)
  return () => {
    const at = running.lastIndexOf(source)
    if (at !== -1) running.splice(at, 1)
  }
}

/** The newest service that signed `token` or holds it as a secret, with its reach. */
async function knowing(
  token: string,
): Promise<{ source: InsightSource; report: ReachReport } | undefined> {
  for (const source of [...running].reverse()) {
    const report = await source.reach(token)
    if (
      !['unknown_token', 'bad_signature', 'missing', 'malformed'].includes(
        report.token.reason ?? '',
      )
    ) {
      return { source, report }
    }
  }
  return undefined
}

const NO_SERVICE =
  'no running service knows this token: use toReach and toBeNarrowerThan inside a test of a file that calls useService (Vitest) or uses the service fixture (Playwright)'

const quoted = (where: ReachWhere) =>
  Object.entries(where)
    .map(([name, value]) => `${name} ${JSON.stringify(value)}`)
    .join(', ')

/**
 * The call that shows the token reaching `where`: the key (or scan prefix) in the bucket, inside
 * one of the regions reach found; `undefined` when no region meets `where`.
 */
function witnessCall(
  endpoint: string,
  report: ReachReport,
  where: ReachWhere,
): SimulateCall | undefined {
  const entry = report.endpoints.find((e) => e.endpoint === endpoint)!
  const regions = entry.limits ?? [{ ability: '', bucket: null, prefix: null }]
  for (const region of regions) {
    if (region.bucket !== null && where.bucket !== undefined && region.bucket !== where.bucket)
      continue
    const asked = where.key ?? where.prefix ?? ''
    const limit = region.prefix ?? ''
    let key: string
    if (where.key !== undefined) key = where.key
    else if (asked.startsWith(limit)) key = asked
    else if (limit.startsWith(asked)) key = limit
    else continue
    if (where.key === undefined && endpoint !== 'keyv.scan' && key === '') key = 'k'
    const bucket = where.bucket ?? region.bucket ?? 'default'
    const args =
      endpoint === 'keyv.scan'
        ? { bucket, ...(key === '' ? {} : { prefix: key }) }
        : { bucket, key, ...(endpoint === 'keyv.set' ? { value: 1 } : {}) }
    return { endpoint, args }
  }
  return undefined
}

/**
 * Whether the token can call `endpoint` — somewhere in `where` when given (some key of the
 * bucket, of the prefix, or that key), decided by a simulated call there — with the message
 * either way.
 */
export async function checkReach(
  token: unknown,
  endpoint: string,
  where: ReachWhere = {},
): Promise<{ pass: boolean; message: string }> {
  if (typeof token !== 'string')
    return { pass: false, message: 'toReach expects a token (a string)' }
  const found = await knowing(token)
  if (!found) return { pass: false, message: NO_SERVICE }
  const { source, report } = found
  const place = Object.keys(where).length ? ` (${quoted(where)})` : ''
  const what = `the token to reach \`${endpoint}'${place}`
  if (report.token.state !== 'usable') {
    return {
      pass: false,
      message: `expected ${what}, but it is ${report.token.state}: ${report.token.explanation}${report.token.counterfactual ? `; ${report.token.counterfactual.sentence}` : ''}`,
    }
  }
  const entry = report.endpoints.find((e) => e.endpoint === endpoint)
  if (!entry) {
    return {
      pass: false,
      message: `expected ${what}, but the service has no endpoint \`${endpoint}'`,
    }
  }
  const regions =
    entry.limits === null ? 'everywhere' : entry.limits.map((l) => `\`${l.ability}'`).join(', ')
  if (entry.decision === 'refused') {
    return {
      pass: false,
      message: `expected ${what}, but ${entry.explanation}${entry.counterfactual ? `; ${entry.counterfactual.sentence}` : ''}`,
    }
  }
  if (Object.keys(where).length === 0) {
    return {
      pass: true,
      message: `expected the token not to reach \`${endpoint}', but ${entry.explanation} (${regions})`,
    }
  }
  const call = witnessCall(endpoint, report, where)
  const [decided] = call ? (await source.simulate(token, [call])).results : []
  if (!call || !decided || decided.decision === 'refused') {
    return {
      pass: false,
      message: `expected ${what}, but it reaches \`${endpoint}' only within ${regions}${decided?.counterfactual ? `; ${decided.counterfactual.sentence}` : ''}`,
    }
  }
  return {
    pass: true,
    message: `expected the token not to reach \`${endpoint}'${place}, but it does: ${decided.explanation} (called with ${JSON.stringify(call.args)})`,
  }
}

/** Whether `child` reaches nothing `parent` does not, with the message either way. */
export async function checkNarrower(
  child: unknown,
  parent: unknown,
): Promise<{ pass: boolean; message: string }> {
  if (typeof child !== 'string' || typeof parent !== 'string') {
    return { pass: false, message: 'toBeNarrowerThan expects two tokens (strings)' }
  }
  const found = await knowing(child)
  if (!found) return { pass: false, message: NO_SERVICE }
  const report = await found.source.diff(parent, child)
  if (report.gained.length === 0) {
    return {
      pass: true,
      message: `expected the token to reach something its parent does not, but it reaches nothing beyond it${report.lost.length ? ` (the parent reaches ${report.lost.length} thing(s) more)` : ''}`,
    }
  }
  const lines = report.gained.map(
    (item) =>
      `  - ${item.sentence}: ${JSON.stringify({ endpoint: item.counterexample.endpoint, ...(item.counterexample.args ? { args: item.counterexample.args } : {}) })}${item.delegated ? ' (the parent could mint it: it reaches auth.create)' : ''}`,
  )
  return {
    pass: false,
    message: `expected the token to reach nothing beyond its parent, but it reaches ${report.gained.length} thing(s) more:\n${lines.join('\n')}`,
  }
}
