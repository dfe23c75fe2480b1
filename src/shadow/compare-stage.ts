/**
 * Shadow mode's third stage: the upstream's answer and the mirror's compared, and a difference
 * weighed: does it follow from an earlier one, did the call read state the engine never saw
 * made, does the upstream answer the same when asked again (only for a call that writes
 * nothing, within the rate budget).
 */
import { TOKEN_SHAPE } from '../conformance/contract/answer'
import type { Decoded } from '../conformance/compare'
import { bearerToken, type ExchangeRecord } from '../engine'
import {
  compareAnswers,
  comparePrefix,
  type AnswerDifference,
  type Compared,
  type Seen,
} from './answers'
import { describeItem } from './known-state'
import type { AskedAgain, Outcome } from './parity-report'
import { writesNothing } from './read-only'
import {
  COMPARED_BODY_BYTES,
  seenOf,
  type Mirrored,
  type ShadowExchange,
  type ShadowState,
} from './shadow-state'
import { upstreamRequest } from './forward'
import { headerRecord, readPrefix } from './upstream'

/** What the compare stage finds of an exchange. */
export interface Verdict {
  up: Seen
  down: Seen
  compared: Compared
  differences: AnswerDifference[]
  outcome: Outcome
  because?: string
  askedAgain: AskedAgain
  /** The exchange a difference follows from. */
  follows?: number
  /** Whether the call may have written. */
  writes: boolean
  /** Said when only the first bytes of the upstream's answer were compared. */
  prefix?: string
}

const lower = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]))

const bytesOf = (body: string | Uint8Array) =>
  typeof body === 'string' ? new TextEncoder().encode(body) : body

/** Compares the two answers of an exchange the mirror has answered, and weighs a difference. */
export async function compareStage(
  state: ShadowState,
  exchange: ShadowExchange,
  mirrored: Mirrored,
): Promise<Verdict> {
  const { twins, known, report, mirror, serviceName } = state
  const { endpoint, answer } = exchange
  const { reply, record, touched } = mirrored
  const up = seenOf(answer)
  const down: Seen = {
    status: reply.status,
    headers: lower(reply.headers),
    body: bytesOf(reply.body),
  }
  const now = (await mirror.control.get('clock')).now
  const compared =
    up.cutFrom === undefined
      ? compareAnswers(up, down, twins, { endpoint, now })
      : comparePrefix(up, down, twins, now)
  const prefix =
    up.cutFrom === undefined
      ? undefined
      : `the first ${up.body.length} bytes of the upstream's answer of ${up.cutFrom}`
  if (prefix) report.comparedPrefix()
  holdOneSided(state, exchange.number, endpoint, record, up, down, compared)
  const verdict: Verdict = {
    up,
    down,
    compared,
    differences: compared.differences,
    outcome: 'agreed',
    askedAgain: 'not asked',
    writes: false,
    ...(prefix ? { prefix } : {}),
  }
  if (compared.differences.length === 0) return verdict

  verdict.outcome = 'differs'
  const presented = bearerToken(exchange.call.header('authorization'))
  const role = presented === undefined ? undefined : twins.roleOf(presented)
  const follows =
    (role === undefined ? undefined : twins.originOf(role)) ?? known.divergedBy(touched)
  const unknownToken =
    presented !== undefined && twins.engineOf(presented) === undefined && role?.startsWith('token')
  if (follows !== undefined) {
    verdict.outcome = 'follows'
    verdict.follows = follows
    verdict.because = `#${follows} left the two accounts different, and this exchange uses what it left`
  } else if (unknownToken && answer.status !== 401) {
    verdict.outcome = 'unknown-state'
    verdict.because =
      'it presented a token the engine never saw made (made before the run, or not through the shadow)'
  } else {
    const listed =
      endpoint === 'keyv.scan' && compared.upstream?.ok && Array.isArray(compared.upstream.value)
        ? (compared.upstream.value as unknown[]).map(String)
        : undefined
    const unknown = known.unknownReads(touched, listed)
    if (unknown.length > 0) {
      verdict.outcome = 'unknown-state'
      verdict.because = `it read what the run never wrote: ${unknown.slice(0, 3).map(describeItem).join(', ')}${unknown.length > 3 ? ` and ${unknown.length - 3} more` : ''}`
    }
  }
  verdict.writes =
    !record ||
    !writesNothing(
      record.trace.endpoint,
      record.trace.calls,
      record.trace.droppedCalls,
      serviceName,
    )
  if (verdict.outcome === 'differs' && state.askAgain) await askAgain(state, exchange, verdict, now)
  return verdict
}

/**
 * Asks the upstream the same again, for a call that writes nothing and within the rate budget:
 * what varies between its two answers is noise, left out of the difference (all of it noise
 * when nothing else differs).
 */
async function askAgain(
  state: ShadowState,
  exchange: ShadowExchange,
  verdict: Verdict,
  now: number,
): Promise<void> {
  const { budget, twins } = state
  const { up } = verdict
  if (verdict.writes) return void (verdict.askedAgain = 'not asked: it writes')
  if (!budget.mayAskAgain()) return void (verdict.askedAgain = 'not asked: the rate limit')
  budget.sending()
  const again = await state.upstream
    .send(upstreamRequest(exchange.call, exchange.body))
    .then(async (answer) => ({ ...answer, ...(await readPrefix(answer, COMPARED_BODY_BYTES)) }))
    .catch(() => undefined)
  if (again) budget.answered(again.status, headerRecord(again.headers))
  if (!again || again.status === 429) return void (verdict.askedAgain = 'not asked: the rate limit')
  const second = seenOf(again)
  const varied = new Set(
    (up.cutFrom === undefined && second.cutFrom === undefined
      ? compareAnswers(up, second, twins, { endpoint: exchange.endpoint, now, pair: false })
      : comparePrefix(up, second, twins, now)
    ).differences.map((d) => d.what),
  )
  verdict.askedAgain = varied.size === 0 ? 'same answer' : 'a different answer'
  const kept =
    varied.has('status') || varied.has('answer')
      ? []
      : verdict.differences.filter((d) => !varied.has(d.what))
  if (varied.size > 0 && kept.length === 0) {
    verdict.outcome = 'noise'
    verdict.because = `the upstream answered differently when asked the same again (${[...varied].join(', ')})`
  } else if (varied.size > 0) {
    verdict.because = `the upstream’s ${[...varied].join(', ')} varied when asked again and are left out`
    verdict.differences = kept
  }
}

/**
 * Gives a role to what one side made and the other did not (an authorization, a cursor, a
 * token inside an answer), so no report shows it and later uses are put down to `exchange`.
 */
function holdOneSided(
  { twins }: ShadowState,
  exchange: number,
  endpoint: string,
  record: ExchangeRecord | undefined,
  up: Seen,
  down: Seen,
  read: { upstream?: Decoded; engine?: Decoded },
) {
  const mints =
    endpoint === 'auth.create' || !!record?.trace.calls.some((c) => c.endpoint === 'auth.create')
  const walk = (value: unknown, test: (text: string) => boolean) => {
    if (typeof value === 'string') {
      if (test(value) && !twins.roleOf(value)) twins.oneSided(value, 'auth', exchange)
    } else if (Array.isArray(value)) value.forEach((item) => walk(item, test))
    else if (value && typeof value === 'object')
      Object.values(value).forEach((item) => walk(item, test))
  }
  if (read.engine?.ok) walk(read.engine.value, (text) => TOKEN_SHAPE.test(text))
  if (mints && read.upstream?.ok)
    walk(read.upstream.value, (text) => /^[A-Za-z0-9_\-.~+/=]{16,}$/.test(text))
  for (const cursor of [up.headers['x-cursor'], down.headers['x-cursor']]) {
    if (cursor && !twins.roleOf(cursor)) twins.oneSided(cursor, 'cursor', exchange)
  }
}
