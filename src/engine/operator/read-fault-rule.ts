import { InvalidError } from '../errors'
import type { Registry } from '../packages'
import type { FaultKind } from '../wire/response'
import {
  FAULT_STATUSES,
  TOKEN_ROLES,
  type CannedAnswer,
  type FaultRule,
  type FaultStatus,
} from './fault-rule'

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
