// `toReach` and `toBeNarrowerThan`: policy tests over tokens, answered by the service's own
// reach, simulate and diff (decision 055), for Vitest, Jest and Playwright alike. A policy
// assertion that cannot fail is worse than none: what they cannot judge (a value that is not a
// token, an endpoint the service does not have, a place it does not read) is refused with an
// error, which fails the assertion with `.not` as without. A `toReach` that passes is told to
// the service's coverage (decision 057): the abilities it showed letting in, or refusing.
import type { ReachReport, SimulateCall } from '../engine/insight'
import { checkNoWider } from './no-wider-matcher'
import { describeReceived, known, type InsightSource } from './running-insight'

export { checkNoWider, type UseSlack } from './no-wider-matcher'
export { registerInsight, type InsightSource } from './running-insight'

/** Where in the key-value store: a bucket, a key prefix, or one key. */
export interface ReachWhere {
  bucket?: string
  prefix?: string
  key?: string
}

/** The keys `where` reads. */
const WHERE_KEYS = ['bucket', 'prefix', 'key']

/** Refuses a place `toReach` does not read, and one given for an endpoint with no keys. */
function checkWhere(endpoint: string, where: unknown): asserts where is ReachWhere {
  if (typeof where !== 'object' || where === null || Array.isArray(where)) {
    throw new TypeError(`toReach: the place must be an object of ${WHERE_KEYS.join(', ')}`)
  }
  const unknown = Object.keys(where).filter((key) => !WHERE_KEYS.includes(key))
  if (unknown.length > 0) {
    throw new TypeError(
      `toReach: unknown key${unknown.length > 1 ? 's' : ''} ${unknown.map((key) => `\`${key}'`).join(', ')}; the place reads ${WHERE_KEYS.join(', ')}`,
    )
  }
  for (const [key, value] of Object.entries(where)) {
    if (typeof value !== 'string') {
      throw new TypeError(`toReach: \`${key}' must be a string, not ${describeReceived(value)}`)
    }
  }
  if (Object.keys(where).length > 0 && !endpoint.startsWith('keyv.')) {
    throw new TypeError(
      `toReach: a place (${WHERE_KEYS.join(', ')}) is for keyv's endpoints; \`${endpoint}' has none`,
    )
  }
}

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
  endpoint: unknown,
  where: unknown = {},
  isNot = false,
): Promise<{ pass: boolean; message: string }> {
  const verdict = await judgeReach(token, endpoint, where)
  // The assertion holds: what it showed counts, `.not` as the refusals of the abilities held.
  if (verdict.pass !== isNot && verdict.source.checked) {
    const shown = verdict.pass ? 'allowed' : 'refused'
    for (const ability of new Set(verdict.pass ? verdict.letIn : verdict.refusing)) {
      verdict.source.checked({ ability, shown })
    }
  }
  return { pass: verdict.pass, message: verdict.message }
}

/**
 * The verdict of `toReach`, with the abilities it shows: those that let the token in when it
 * passes, those held that refuse it there when it does not (none for a token unusable as a
 * whole, or a secret key).
 */
interface ReachVerdict {
  pass: boolean
  message: string
  source: InsightSource
  letIn: string[]
  refusing: string[]
}

async function judgeReach(
  token: unknown,
  endpoint: unknown,
  where: unknown,
): Promise<ReachVerdict> {
  if (typeof endpoint !== 'string') {
    throw new TypeError(
      `toReach: the endpoint must be a dotted name, not ${describeReceived(endpoint)}`,
    )
  }
  checkWhere(endpoint, where)
  const { source, report } = await known('toReach', 'the value expected', token)
  if (!report.endpoints.some((e) => e.endpoint === endpoint)) {
    const isPackage = report.packages.some((p) => p.package === endpoint)
    throw new Error(
      isPackage
        ? `toReach: \`${endpoint}' is a package; name one of its endpoints (${report.endpoints
            .filter((e) => e.endpoint.startsWith(`${endpoint}.`))
            .map((e) => e.endpoint)
            .slice(0, 6)
            .join(', ')}, …)`
        : `toReach: the service has no endpoint \`${endpoint}'`,
    )
  }
  const place = Object.keys(where).length ? ` (${quoted(where)})` : ''
  const what = `the token to reach \`${endpoint}'${place}`
  const none = { source, letIn: [], refusing: [] }
  if (report.token.state !== 'usable') {
    return {
      ...none,
      pass: false,
      message: `expected ${what}, but it is ${report.token.state}: ${report.token.explanation}${report.token.counterfactual ? `; ${report.token.counterfactual.sentence}` : ''}`,
    }
  }
  const entry = report.endpoints.find((e) => e.endpoint === endpoint)!
  const regions =
    entry.limits === null ? 'everywhere' : entry.limits.map((l) => `\`${l.ability}'`).join(', ')
  const covering = (entry.limits ?? []).map((l) => l.ability)
  if (entry.decision === 'refused') {
    return {
      ...none,
      refusing: entry.code === 'missing_ability' ? (report.token.abilities ?? []) : [],
      pass: false,
      message: `expected ${what}, but ${entry.explanation}${entry.counterfactual ? `; ${entry.counterfactual.sentence}` : ''}`,
    }
  }
  if (Object.keys(where).length === 0) {
    return {
      ...none,
      letIn: entry.grant === 'ability' && entry.ability !== null ? [entry.ability] : [],
      pass: true,
      message: `expected the token not to reach \`${endpoint}', but ${entry.explanation} (${regions})`,
    }
  }
  const call = witnessCall(endpoint, report, where)
  const [decided] = call ? (await source.simulate(token as string, [call])).results : []
  if (!call || !decided || decided.decision === 'refused') {
    return {
      ...none,
      refusing: covering.length ? covering : entry.ability !== null ? [entry.ability] : [],
      pass: false,
      message: `expected ${what}, but it reaches \`${endpoint}' only within ${regions}${decided?.counterfactual ? `; ${decided.counterfactual.sentence}` : ''}`,
    }
  }
  return {
    ...none,
    letIn: decided.calls.flatMap((c) => (c.grant === 'ability' && c.ability ? [c.ability] : [])),
    pass: true,
    message: `expected the token not to reach \`${endpoint}'${place}, but it does: ${decided.explanation} (called with ${JSON.stringify(call.args)})`,
  }
}

/** Whether `child` reaches nothing `parent` does not, with the message either way. */
export async function checkNarrower(
  child: unknown,
  parent: unknown,
): Promise<{ pass: boolean; message: string }> {
  const found = await known('toBeNarrowerThan', 'the value expected', child)
  await known('toBeNarrowerThan', 'the parent', parent)
  const report = await found.source.diff(parent as string, child as string)
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

/** The matchers, for `expect.extend`: Vitest's and Jest's. */
export const insightMatchers = {
  async toReach(this: { isNot?: boolean }, token: unknown, endpoint: unknown, where?: unknown) {
    const { pass, message } = await checkReach(token, endpoint, where, this.isNot === true)
    return { pass, message: () => message }
  },
  async toBeNarrowerThan(child: unknown, parent: unknown) {
    const { pass, message } = await checkNarrower(child, parent)
    return { pass, message: () => message }
  },
  async toBeNoWiderThanItsUse(token: unknown, slack?: unknown) {
    const { pass, message } = await checkNoWider(token, slack)
    return { pass, message: () => message }
  },
}
