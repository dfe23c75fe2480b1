import type { Account } from './account/account'
import { runIsolated, type CommitRecorder } from './account/isolation'
import type { History, Step } from './history/history'
import { authenticate } from './auth/credentials'
import type { Principal } from './auth/principal'
import type { Signer } from './auth/signer'
import type { Clock } from './clock'
import { nowSeconds } from './clock'
import { MethodError, UnauthorizedError } from './errors'
import { checkCallRefusal, checkedTokenRefusal } from './insight/refusals'
import type { QuietParts } from './insight/quiet-run'
import type { CallRequest } from './lang/tree'
import type { Value } from './lang/value'
import type { ExchangeDraft } from './operator/exchange-log'
import type { OperatorState, OperatorView } from './operator/state'
import { StrictError, strictDeviations } from './operator/strict'
import type { Registry } from './packages'
import { checkCounted, checkWindow, rateHeader } from './rate-window'
import { NONE } from './runtime/endpoint'
import { Evaluation } from './runtime/evaluate'
import type { AccountTurns, Pause } from './runtime/turns'
import type { EndpointSettings, Limits } from './settings'
import type { Store } from './store'
import { urlOf, type Call } from './wire/call'
import { requestFormat, type Format } from './wire/formats'
import { parseCall } from './wire/request'
import { resultReply, type Reply, type ReplyFault } from './wire/response'

/**
 * The stages of an endpoint call, in the order decision 001 sets: receive (405, then 413 while
 * the body is read) → strict (strict mode's refusals) → admit (401, then 429) → parse (415,
 * 400) → evaluate (the call tree, its writes committed) → answer (the result in the chosen
 * format). `runPipeline` calls them in turn; each is a function of the engine's parts and the
 * exchange.
 */

/** The engine's parts a request reads, made once by `createEngine`. */
export interface EngineParts {
  serviceName: string
  /** The base URL's path, without a trailing slash: what routes are read below. */
  basePath: string
  store: Store
  clock: Clock
  limits: Limits
  account: Account
  registry: Registry
  operator: OperatorState
  /** The settings endpoints see: everything but the store. */
  visibleSettings: EndpointSettings
  /** Deploy links name the request's origin, not the base URL's (see `EngineOptions`). */
  linksByRequest: boolean
  /** How this account's evaluations take turns with other accounts' (see `EngineOptions`). */
  turns?: AccountTurns
  /** The account's history: its steps and their undo records (decision 086). */
  history: History
}

/** What the engine knows of one endpoint call once it is routed. */
export interface Exchange {
  call: Call
  /** `a.b.c`, or `null` when the path names no endpoint. */
  endpoint: string | null
  /** The body's format, read once from `content-type`; `undefined` for one we do not read. */
  format: Format | undefined
  /** The format the answer is written in, errors included. */
  reply: Format
  /** The journal's record in the making, when the journal is on. */
  draft?: ExchangeDraft
  /** The fault the call met, when it met one. */
  fault?: ReplyFault
  /** Its step on the account's timeline: what keys a seeded account's draws (decision 086). */
  step?: number
  /** The account's history's record of it, while the history keeps steps. */
  history?: Step
}

/**
 * An endpoint call, stage by stage, under the operator's controls as `view` found them. Given
 * `turns`, the whole call waits for its account's turn to start (before its body is read: a
 * request waiting costs no other account anything), and its time limit counts from then.
 */
export function runPipeline(
  parts: EngineParts,
  exchange: Exchange,
  view: OperatorView,
): Promise<Reply> {
  if (!parts.turns) return stages(parts, exchange, view)
  // The client's signal is made only if the call waits for its turn: most never do.
  return parts.turns.admit(
    (pause) => stages(parts, exchange, view, pause),
    undefined,
    () => exchange.call.signal,
  )
}

async function stages(
  parts: EngineParts,
  exchange: Exchange,
  view: OperatorView,
  pause?: Pause,
): Promise<Reply> {
  const body = await receive(parts, exchange)
  await checkStrict(parts, exchange, body, view)
  // Read once: the request is authenticated and evaluated under one signing key.
  const signer = await parts.account.signer()
  // A refusal's counterfactual is checked by quiet runs that take the call's own turns (made
  // on a refusal only: the client's signal is not made for calls that never need it).
  const checkRun = () => ({ ...(pause ? { pause } : {}), ...quietSignal(exchange) })
  let principal: Principal
  try {
    principal = await admit(parts, exchange, view, signer)
  } catch (error) {
    const { draft } = exchange
    // What would have let a dead token in is checked against the call itself, for the trace.
    if (draft?.presented) {
      draft.tokenCounterfactual = await checkedTokenRefusal(
        quietParts(parts, signer),
        draft.presented,
        exchange.endpoint!,
        () => parse(parts, exchange, body),
        nowSeconds(parts.clock),
        checkRun(),
      )
    }
    throw error
  }
  const call = parse(parts, exchange, body)
  try {
    const evaluated = await evaluate(parts, exchange, principal, call, view, signer, pause)
    return answer(parts, exchange, evaluated)
  } catch (error) {
    if (exchange.draft && error instanceof UnauthorizedError) {
      await checkCallRefusal(
        quietParts(parts, signer),
        principal,
        exchange.endpoint!,
        call,
        { calls: exchange.draft.tracer.calls, error },
        nowSeconds(parts.clock),
        checkRun(),
      )
    }
    throw error
  }
}

/** What a run that writes nothing reads of the engine, for a refusal's checked counterfactual. */
const quietParts = (parts: EngineParts, signer: Signer): QuietParts => ({
  store: parts.store,
  registry: parts.registry,
  settings: parts.visibleSettings,
  signer,
})

/** The client's signal, for a quiet run that stops when the client goes away. */
const quietSignal = ({ call }: Exchange): { signal?: AbortSignal } =>
  call.signal ? { signal: call.signal } : {}

/** 405 for anything but POST, then 413 while the body is read. */
export async function receive({ limits }: EngineParts, exchange: Exchange): Promise<Uint8Array> {
  if (exchange.call.method !== 'POST') throw new MethodError('POST')
  const body = await exchange.call.body(limits.maxBodyBytes)
  if (exchange.draft) exchange.draft.body = body
  return body
}

/** In strict mode, what the interface does not promise is refused, and every request noted. */
export async function checkStrict(
  { serviceName, operator, clock }: EngineParts,
  { call }: Exchange,
  body: Uint8Array,
  view: OperatorView,
): Promise<void> {
  if (!view.strict) return
  const deviations = strictDeviations(call, body, serviceName)
  await operator.strict.record({
    method: call.method,
    url: urlOf(call),
    at: clock.now(),
    deviations,
  })
  if (deviations.length > 0) throw new StrictError(deviations)
}

/** 401 unless the bearer token is a live secret or authorization; then 429 past the limit. */
export async function admit(
  { account, store, clock }: EngineParts,
  { call, draft }: Exchange,
  view: OperatorView,
  signer: Signer,
): Promise<Principal> {
  const synced = account.syncClock(view.clockOffset)
  if (synced) await synced
  const principal = await authenticate(
    call.header('authorization'),
    store,
    signer,
    nowSeconds(clock),
    draft,
  )
  checkWindow(view.rateLimit, view.window, nowSeconds(clock))
  return principal
}

/** 415 for a content type we do not read, 400 for a body that does not parse. */
export function parse(
  { serviceName }: EngineParts,
  { call, format }: Exchange,
  body: Uint8Array,
): CallRequest {
  const known = format ?? requestFormat(call.header('content-type'), serviceName)
  return parseCall(body, known, new URLSearchParams(call.search))
}

/** What a call came to: its result, and the headers its endpoints set (`x-cursor`, …). */
export interface Evaluated {
  value: Value
  headers: Record<string, string>
}

/**
 * Runs the call tree against an overlay of the store, and commits what it wrote at once,
 * isolated from every other request (it may run again: `runIsolated`), asking `pause` between
 * calls (its account's turns with other accounts', when the engine is given `turns`).
 */
export async function evaluate(
  parts: EngineParts,
  exchange: Exchange,
  principal: Principal,
  call: CallRequest,
  { rateLimit }: OperatorView,
  signer: Signer,
  pause?: Pause,
): Promise<Evaluated> {
  const { store, limits, clock, operator, registry } = parts
  let headers = rateHeader(rateLimit)
  // Calls are counted, each as it starts, while the limit is enforced.
  const countCall = async () => {
    const now = nowSeconds(clock)
    checkCounted(rateLimit, await operator.rate.count(now, rateLimit.windowSeconds), now)
  }
  // One time limit over every run, and the waits for a turn between calls.
  const deadline = clock.now() + limits.timeLimitMs
  const result = await runIsolated(
    store,
    limits.maxAccountBytes,
    (overlay) => {
      exchange.draft?.tracer.restart()
      headers = rateHeader(rateLimit)
      const evaluation = new Evaluation(
        {
          settings: parts.linksByRequest
            ? { ...parts.visibleSettings, baseUrl: `${exchange.call.origin}${parts.basePath}` }
            : parts.visibleSettings,
          store: overlay,
          clock,
          signer,
          principal,
          deadline,
          random: parts.account.randomNow(),
          step: exchange.step ?? 0,
          ...(pause ? { pause } : {}),
          setHeader: (key, value) => (headers[key] = value),
          ...(rateLimit.enforce ? { countCall } : {}),
          ...(exchange.draft ? { tracer: exchange.draft.tracer } : {}),
        },
        (endpoint) => registry.resolve(endpoint, overlay),
        (endpoint) => registry.neighbours(endpoint),
      )
      return evaluation.run(exchange.endpoint!, call)
    },
    recorderOf(parts.history, exchange.history),
  )
  return { value: result === NONE ? null : result, headers }
}

/** Where a request's commit is recorded, when its history keeps a step for it. */
function recorderOf(history: History, step: Step | undefined): CommitRecorder | undefined {
  if (!step) return undefined
  return { record: history.record, committed: (commit) => history.committed(step, commit) }
}

/** The result in the format the client asked for, with the headers the call set. */
export function answer(
  { serviceName }: EngineParts,
  exchange: Exchange,
  { value, headers }: Evaluated,
): Reply {
  return resultReply(value, exchange.reply, serviceName, headers)
}
