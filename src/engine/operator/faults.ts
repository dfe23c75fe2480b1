import { utf8 } from '../bytes'
import { platformRandom, prefixed, unit, type Maybe, type Random } from '../auth/random'
import { ForbiddenError, InvalidError, ServiceError } from '../errors'
import type { Registry } from '../packages'
import type { FaultKind, Reply, ReplyFault } from '../wire/response'

export type { FaultKind } from '../wire/response'

export const FAULT_STATUSES = [408, 429, 500, 502, 503, 504] as const
export type FaultStatus = (typeof FAULT_STATUSES)[number]

export interface FaultRule {
  id: string
  kind: FaultKind
  /** The status a `status` fault answers with; `null` for the other kinds. */
  status: FaultStatus | null
  /** Calls it still applies to; `null`: every matching call until cleared. */
  count: number | null
  /** Only calls to this endpoint, or to every endpoint of this package (whole segments). */
  endpoint: string | null
  /**
   * Only calls carrying this bearer token, or a token of this role, as the journal names them:
   * `secret`, `authorization` (any authorization the account signed) or `none`.
   */
  token: string | null
  /** The chance a matching call meets it (and uses up one of its `count`). */
  probability: number
  /** Real milliseconds to wait first; for `hang`, how long before the connection drops. */
  delayMs: number
  /** The `retry-after` seconds of a 429. */
  retryAfter: number
  /** What a `respond` rule answers. */
  answer?: CannedAnswer
}

/** An answer a `respond` rule gives: its status, headers (lower-case names) and raw body. */
export interface CannedAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/**
 * A `respond` rule's answer as given: `body` a text sent as it is (`text/plain` unless the
 * headers say), or any other JSON value sent as JSON (`application/json`); `status` 200 unless
 * given.
 */
export interface AnswerOptions {
  status?: number
  headers?: Record<string, string>
  body?: unknown
}

/** The most fault rules one account may have set at once. */
export const MAX_FAULT_RULES = 100

/** 403: the account has as many rules as it may; said with the limit and the way out. */
export const tooManyFaults = (): ForbiddenError =>
  new ForbiddenError(
    `the account has ${MAX_FAULT_RULES} fault rules set, the most it may: clear some (POST /_account/faults/<id>/clear, or POST /_account/faults/clear) first`,
    'too_many_faults',
  )
/** A rule as the control plane and the helpers take it: without `kind`, a `status` answers in place. */
export type FaultOptions = Partial<Omit<FaultRule, 'id' | 'count' | 'answer'>> & {
  /**
   * Calls it applies to (default 1, or every call for `respond`); `null`: every matching call
   * until cleared.
   */
  count?: number | null
  once?: true
  answer?: AnswerOptions
}

const KINDS: readonly FaultKind[] = [
  'status',
  'delay',
  'network',
  'reset',
  'truncate',
  'hang',
  'respond',
]
const MAX_DELAY_MS = 30_000
const MAX_HANG_MS = 600_000
const DEFAULT_HANG_MS = 30_000

/** A fault the engine answers with in place of the call's own answer. */
export class InjectedFault extends ServiceError {
  constructor(status: FaultStatus, headers: Record<string, string>) {
    const words: Record<FaultStatus, string> = {
      408: 'timeout',
      429: 'rate limited',
      500: 'internal error',
      502: 'bad gateway',
      503: 'service unavailable',
      504: 'gateway timeout',
    }
    super(
      status,
      'injected_fault',
      `${words[status]} (a fault injected through the control plane)`,
      {
        ...headers,
        'x-fault': String(status),
      },
    )
  }
}

/**
 * Reads a rule from a control-plane body, saying what is wrong with it. `{status: 0}` is the
 * older spelling of a delay alone.
 */
export function readFaultRule(
  body: Record<string, unknown>,
  registry?: Pick<Registry, 'get' | 'list' | 'neighbours'>,
): Omit<FaultRule, 'id'> {
  const unknown = Object.keys(body).filter((key) => !RULE_KEYS.includes(key))
  if (unknown.length > 0) {
    throw new InvalidError(
      `a fault takes ${RULE_KEYS.join(', ')}; not ${unknown.map((key) => `\`${key}'`).join(', ')}`,
    )
  }
  const { status, endpoint, token, delayMs, retryAfter = 1, probability = 1, once } = body
  const kind = body.kind ?? (status === 0 ? 'delay' : 'status')
  if (typeof kind !== 'string' || !KINDS.includes(kind as FaultKind)) {
    throw new InvalidError(`\`kind' must be one of ${KINDS.join(', ')}`)
  }
  if (kind === 'status') {
    if (typeof status !== 'number' || !(FAULT_STATUSES as readonly number[]).includes(status)) {
      throw new InvalidError(
        `\`status' must be ${FAULT_STATUSES.join(', ')}, or 0 for a delay alone`,
      )
    }
  } else if (status !== undefined && !(kind === 'delay' && status === 0)) {
    throw new InvalidError(`a ${kind} fault takes no \`status'`)
  }
  if (once !== undefined && once !== true) throw new InvalidError("`once' can only be true")
  const answer = kind === 'respond' ? readAnswer(body.answer) : undefined
  if (kind !== 'respond' && body.answer !== undefined) {
    throw new InvalidError(`a ${kind} fault takes no \`answer'; give one with kind respond`)
  }
  const count =
    once === true ? 1 : body.count === undefined ? (kind === 'respond' ? null : 1) : body.count
  if (
    count !== null &&
    (typeof count !== 'number' || !Number.isInteger(count) || count < 1 || count > 10_000)
  ) {
    throw new InvalidError(
      "`count' must be a whole number of calls from 1 to 10000, or null for every call until the faults are cleared",
    )
  }
  if (
    endpoint !== undefined &&
    endpoint !== null &&
    (typeof endpoint !== 'string' || !/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(endpoint))
  ) {
    throw new InvalidError(
      "`endpoint' must be an endpoint's or a package's dotted name, such as keyv.get or keyv",
    )
  }
  if (typeof endpoint === 'string' && registry) checkTarget(endpoint, registry)
  if (token !== undefined && token !== null && (typeof token !== 'string' || token === '')) {
    throw new InvalidError(
      `\`token' must be the bearer token whose calls meet the fault, or a role: ${TOKEN_ROLES.join(', ')}`,
    )
  }
  if (typeof probability !== 'number' || !(probability > 0 && probability <= 1)) {
    throw new InvalidError("`probability' must be a number more than 0 and at most 1")
  }
  const maxDelay = kind === 'hang' ? MAX_HANG_MS : MAX_DELAY_MS
  const delay = delayMs ?? (kind === 'hang' ? DEFAULT_HANG_MS : 0)
  if (typeof delay !== 'number' || !(delay >= 0 && delay <= maxDelay)) {
    throw new InvalidError(`\`delayMs' must be milliseconds from 0 to ${maxDelay}`)
  }
  if (kind === 'delay' && delay === 0) throw new InvalidError('a delay fault needs a delayMs')
  if (typeof retryAfter !== 'number' || !Number.isInteger(retryAfter) || retryAfter < 0) {
    throw new InvalidError("`retryAfter' must be a whole number of seconds")
  }
  return {
    kind: kind as FaultKind,
    status: kind === 'status' ? (status as FaultStatus) : null,
    count: count as number | null,
    endpoint: (endpoint as string | undefined) ?? null,
    token: (token as string | undefined) ?? null,
    probability,
    delayMs: delay,
    retryAfter,
    ...(answer ? { answer } : {}),
  }
}

/** What a rule may say: anything else is a misspelling that would match every call. */
const RULE_KEYS = [
  'kind',
  'status',
  'endpoint',
  'token',
  'count',
  'once',
  'probability',
  'delayMs',
  'retryAfter',
  'answer',
]

/** The roles a rule's `token` may name in place of a token, as the journal names them. */
export const TOKEN_ROLES = ['secret', 'authorization', 'none'] as const

/**
 * A rule's endpoint must be one the service has, or a package of them: a misspelt one would
 * never be met. Stored procedures (`lib`, `lib.<name>`) may come later, so any is taken.
 */
function checkTarget(endpoint: string, registry: Pick<Registry, 'get' | 'list' | 'neighbours'>) {
  if (endpoint === 'lib' || endpoint.startsWith('lib.') || registry.get(endpoint)) return
  if (registry.list().some(({ name }) => name.startsWith(`${endpoint}.`))) return
  const near = registry.neighbours(endpoint)
  throw new InvalidError(
    `\`endpoint' ${JSON.stringify(endpoint)} is neither an endpoint nor a package of this service${near.length > 0 ? `; its package holds ${near.join(', ')}` : ''}`,
  )
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** A `respond` rule's answer, checked and made plain (see `AnswerOptions`). */
function readAnswer(given: unknown): CannedAnswer {
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw new InvalidError(
      "a respond rule needs an `answer': { status?, headers?, body? }, what the call is answered with",
    )
  }
  const { status = 200, headers = {}, body = '', ...rest } = given as Record<string, unknown>
  const unknown = Object.keys(rest)
  if (unknown.length > 0) {
    throw new InvalidError(`\`answer' takes status, headers and body, not ${unknown.join(', ')}`)
  }
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) {
    throw new InvalidError("`answer.status' must be a whole number from 200 to 599")
  }
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) {
    throw new InvalidError("`answer.headers' must be an object of header names and texts")
  }
  const plain: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name) || typeof value !== 'string' || /[\r\n]/.test(value)) {
      throw new InvalidError(
        `\`answer.headers' must name headers with texts on one line: ${JSON.stringify(name)} is not`,
      )
    }
    plain[name.toLowerCase()] = value
  }
  const text = typeof body === 'string'
  plain['content-type'] ??= text ? 'text/plain; charset=utf-8' : 'application/json'
  return { status, headers: plain, body: text ? body : JSON.stringify(body) }
}

/**
 * The draw a rule with a probability below 1 makes for one call: a number in [0, 1), from the
 * account's generator, keyed by the call's step and the rule (decision 086).
 */
export type FaultDraw = (rule: FaultRule) => Maybe<number>

/**
 * A planner a test runner sets for seeded chaos (decision 091): asked for every call no rule
 * met, it answers the fault that call meets by its address, or none. Never kept in a frame or a
 * checkpoint: whoever sets it clears it.
 */
export type FaultPlanner = (
  endpoint: string,
  token: string | null,
  role: string,
) => Maybe<Omit<FaultRule, 'id'> | undefined>

/** A draw from `random` for the call at `step`. */
export const faultDraw =
  (random: Random, step: number): FaultDraw =>
  (rule) => {
    const bytes = random.bytes('fault-draw', `${step}:${rule.id}`, 4)
    return bytes instanceof Promise ? bytes.then(unit) : unit(bytes)
  }

const platformDraw = faultDraw(platformRandom, 0)

const covers = (endpoint: string, name: string) =>
  name === endpoint || name.startsWith(`${endpoint}.`)

/**
 * Whether a call to `endpoint` bearing `token` of `role` (`secret`, `authorization`, `none` or
 * `unknown`) is one `rule` is for (before any draw for its probability).
 */
const matches = (rule: FaultRule, endpoint: string, token: string | null, role: string): boolean =>
  (rule.endpoint === null || covers(rule.endpoint, endpoint)) &&
  (rule.token === null || rule.token === token || rule.token === role)

/**
 * The first rule a call to `endpoint` bearing `token` of `role` meets, drawing (with `draw`)
 * for each matching rule with a probability, in order.
 */
export async function firstMet(
  rules: readonly FaultRule[],
  endpoint: string,
  token: string | null,
  role: string,
  draw: FaultDraw = platformDraw,
): Promise<FaultRule | undefined> {
  for (const rule of rules) {
    if (!matches(rule, endpoint, token, role)) continue
    if (rule.probability >= 1 || (await draw(rule)) < rule.probability) return rule
  }
  return undefined
}

/** The id of the `n`-th rule an account is given, drawn from `random`. */
export const faultId = (random: Random, n: number): Maybe<string> =>
  prefixed('flt_', random.bytes('fault-id', String(n), 6))

/**
 * Faults on demand: rules the control plane (or a test helper) adds, each used up by the calls
 * it meets, the first matching rule first. Cleared by `clear` and by a reset.
 */
export function createFaults() {
  let rules: FaultRule[] = []
  let planner: FaultPlanner | null = null
  let random = (): Random => platformRandom
  /** How many rules were added: what keys a seeded account's next id. */
  let added = 0
  /** Moves on every change of the rules or of what is left of them. */
  let version = 0
  return {
    get version(): number {
      return version
    },
    /** Draws ids from the generator `source` gives, as it stands at each draw. */
    useRandom(source: () => Random): void {
      random = source
    },
    /** How many rules were added since the last reset (`clear` keeps counting). */
    get added(): number {
      return added
    },
    set added(count: number) {
      if (count !== added) version++
      added = count
    },
    /** The next rule's id: at once, unless the account's generator answers later. */
    nextId: (): Maybe<string> => faultId(random(), added + 1),
    /**
     * Adds a rule with the next id (`id`, when drawn already with `nextId`): at once, so that
     * the Node API answers synchronously.
     */
    add(rule: Omit<FaultRule, 'id'>, id?: string): FaultRule {
      if (rules.length >= MAX_FAULT_RULES) throw tooManyFaults()
      const drawn = id ?? faultId(random(), added + 1)
      if (typeof drawn !== 'string') {
        throw new Error(
          "this account's fault ids are drawn asynchronously: add it through the operator",
        )
      }
      added++
      version++
      const kept = { id: drawn, ...rule }
      rules.push(kept)
      return { ...kept }
    },
    list(): FaultRule[] {
      return rules.map((rule) => ({ ...rule }))
    },
    /** Whether any rule (or a planner) is set. */
    any: (): boolean => rules.length > 0 || planner !== null,
    /** Sets the planner every call no rule meets asks (`null`: none). */
    plan(given: FaultPlanner | null): void {
      planner = given
    },
    remove(id: string): boolean {
      const before = rules.length
      rules = rules.filter((rule) => rule.id !== id)
      version++
      return rules.length < before
    },
    clear(): void {
      if (rules.length > 0) version++
      rules = []
    },
    /** Puts back rules as listed (ids and calls left included), in place of every rule. */
    replace(given: readonly FaultRule[]): void {
      if (rules.length > 0 || given.length > 0) version++
      rules = given.map((rule) => ({ ...rule }))
    },
    /** The rule this call meets, counted as used; none when no rule matches or the draw misses. */
    async take(
      endpoint: string,
      token: string | null,
      role: string,
      draw?: FaultDraw,
    ): Promise<FaultRule | undefined> {
      const rule = await firstMet(rules, endpoint, token, role, draw)
      if (!rule && planner) {
        const planned = await planner(endpoint, token, role)
        return planned && { id: 'chaos', ...planned }
      }
      if (!rule || !rules.includes(rule)) return undefined
      if (rule.count !== null) {
        version++
        rule.count -= 1
        if (rule.count === 0) rules = rules.filter((r) => r !== rule)
      }
      return { ...rule }
    },
  }
}

export type Faults = ReturnType<typeof createFaults>

/** What meeting `rule` does to the way the answer reaches the client, as plain data. */
export function replyFault(rule: FaultRule): ReplyFault {
  const ending =
    rule.kind === 'network' || rule.kind === 'hang'
      ? 'drop'
      : rule.kind === 'reset'
        ? 'break'
        : 'answer'
  return { kind: rule.kind, delayMs: rule.delayMs, ending }
}

/**
 * Whether the endpoint runs at all under `rule`: a `status` fault answers in its place (thrown,
 * as the error it answers with), `network` and `hang` answer nothing; the other kinds meet the
 * call's own answer.
 */
export function runsUnder(rule: FaultRule): boolean {
  if (rule.kind === 'status') {
    const headers: Record<string, string> =
      rule.status === 429 ? { 'retry-after': String(rule.retryAfter) } : {}
    throw new InjectedFault(rule.status!, headers)
  }
  return rule.kind !== 'network' && rule.kind !== 'hang' && rule.kind !== 'respond'
}

/**
 * The answer as a fault leaves it: none for a dropped connection (status 0), the first half of
 * its body for `reset` and `truncate`, and `x-fault` saying the fault either way (kept in the
 * journal even when it never reaches the client).
 */
export function faulted(reply: Reply, fault: ReplyFault): Reply {
  if (fault.ending === 'drop') {
    return { status: 0, headers: { 'x-fault': fault.kind }, body: '', fault }
  }
  const headers = { ...reply.headers }
  headers['x-fault'] ??= fault.kind
  const cut = fault.kind === 'reset' || fault.kind === 'truncate'
  return { status: reply.status, headers, body: cut ? half(reply.body) : reply.body, fault }
}

function half(body: string | Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const bytes = typeof body === 'string' ? utf8(body) : body
  return bytes.slice(0, Math.floor(bytes.length / 2))
}
