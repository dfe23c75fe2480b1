import { authenticate, type Presented } from '../auth/credentials'
import { utf8 } from '../bytes'
import { fromBase64 } from '../wire/base64'
import type { Principal } from '../auth/principal'
import {
  ClientGoneError,
  InvalidError,
  ServiceError,
  TooLargeError,
  UnauthorizedError,
} from '../errors'
import { endpointSettings } from '../settings'
import type { Json } from '../store'
import { credentialTrace, outcomeOf, type CallTrace, type CredentialTrace } from '../trace'
import { mediaType, requestFormat } from '../wire/formats'
import { parseCall } from '../wire/request'
import { between, identifyAt, momentOf, type InsightContext, type InsightRun } from './context'
import { quietRun } from './quiet-run'
import { checkCallRefusal, checkedTokenRefusal } from './refusals'
import type { SimulateCall, SimulatedCall, SimulateReport } from './types'
import { callTuples } from '../wire/call-tuples'

/** The most calls one simulate request may ask about. */
export const MAX_SIMULATED_CALLS = 1000

/**
 * The decision for each call, at `at` (the virtual clock's now by default), made by the same
 * code that answers calls: the token is authenticated, the body parsed and the call evaluated
 * as a real call would be, over an overlay that is never committed, on a clock of its own that
 * sleeps without waiting (`quietRun`, `simulatedClock`), under the real call's time limit: a call that
 * would answer 408 is reported so. Nothing is written; each call sees the account as it is.
 * What the operator set up (faults, strict mode, the rate limit) is not part of the engine's
 * rules and plays no part. The calls take turns as `run` says, and stop when its client goes
 * away.
 */
export async function simulate(
  ctx: InsightContext,
  token: string,
  calls: readonly SimulateCall[],
  at?: number,
  run: InsightRun = {},
): Promise<SimulateReport> {
  if (!Array.isArray(calls) || calls.length > MAX_SIMULATED_CALLS) {
    throw new InvalidError(`\`calls' must be an array of at most ${MAX_SIMULATED_CALLS} calls`)
  }
  const now = await momentOf(ctx, at)
  const { summary } = await identifyAt(ctx, token, now)
  const results: SimulatedCall[] = []
  for (const call of calls) {
    const turn = between(ctx, run)
    if (turn) await turn
    results.push(await simulateOne(ctx, token, readCall(call), now, run))
  }
  return { at: now, token: summary, results }
}

/** A call as given, checked: a 400 names what is wrong with it. */
function readCall(call: SimulateCall): SimulateCall {
  if (typeof call !== 'object' || call === null || typeof call.endpoint !== 'string') {
    throw new InvalidError('each call needs `endpoint`, a dotted name such as `keyv.get`')
  }
  for (const field of ['query', 'body', 'bodyBase64', 'contentType'] as const) {
    if (call[field] !== undefined && typeof call[field] !== 'string') {
      throw new InvalidError(`\`${field}' of a call must be a string`)
    }
  }
  if (
    call.args !== undefined &&
    (call.args === null || typeof call.args !== 'object' || Array.isArray(call.args))
  ) {
    throw new InvalidError('`args` of a call must be an object of named arguments')
  }
  if (
    (call.body !== undefined || call.bodyBase64 !== undefined) &&
    (call.input !== undefined || call.args !== undefined)
  ) {
    throw new InvalidError('give a call either `input` and `args`, or the `body` as sent, not both')
  }
  return call
}

/** The body and content type a call is sent with. */
function bodyOf(call: SimulateCall, serviceName: string): { body: Uint8Array; type: string } {
  if (call.bodyBase64 !== undefined) {
    const text = call.bodyBase64.replace(/\s+/g, '')
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) {
      throw new InvalidError('`bodyBase64` of a call is not base64')
    }
    return { body: fromBase64(text), type: call.contentType ?? 'text/plain' }
  }
  if (call.body !== undefined)
    return { body: utf8(call.body), type: call.contentType ?? 'text/plain' }
  const tuples: Json[] = callTuples(call.input, call.args ?? {})
  return { body: utf8(JSON.stringify(tuples)), type: mediaType('tuples', serviceName) }
}

async function simulateOne(
  ctx: InsightContext,
  token: string,
  call: SimulateCall,
  now: number,
  run: InsightRun,
): Promise<SimulatedCall> {
  const { settings, registry, account } = ctx
  const { store, serviceName, limits } = settings
  let credential: CredentialTrace | null = null
  let presented: Presented | undefined
  let calls: CallTrace[] = []
  let status = 200
  let failure: unknown
  try {
    const { body, type } = bodyOf(call, serviceName)
    if (body.length > limits.maxBodyBytes) throw new TooLargeError(limits.maxBodyBytes)
    const signer = await account.signer()
    const parts = {
      store,
      registry,
      settings: endpointSettings(settings),
      signer,
      random: account.randomNow(),
    }
    const read = () =>
      parseCall(body, requestFormat(type, serviceName), new URLSearchParams(call.query ?? ''))
    let principal: Principal
    try {
      principal = await authenticate(
        token.trim() === '' ? null : `bearer ${token.trim()}`,
        store,
        signer,
        now,
        { observe: (seen) => (presented = seen) },
      )
    } catch (error) {
      if (presented) {
        const checked = await checkedTokenRefusal(parts, presented, call.endpoint, read, now, run)
        credential = credentialTrace(presented, checked)
      }
      throw error
    }
    credential = credentialTrace(presented!)
    const request = read()
    const outcome = await quietRun(parts, principal, call.endpoint, request, now, run)
    calls = outcome.calls
    if (outcome.status !== 200) {
      if (outcome.error instanceof UnauthorizedError) {
        const refused = { calls, error: outcome.error }
        await checkCallRefusal(parts, principal, call.endpoint, request, refused, now, run)
      }
      throw outcome.error
    }
  } catch (error) {
    if (error instanceof ClientGoneError) throw error
    failure = error
    status = error instanceof ServiceError ? error.status : 500
  }
  const outcome = outcomeOf(status, failure, credential)
  const refusedCall = calls.find((c) => c.decision === 'refused' || c.decision === 'failed')
  const refusedToken = (credential as CredentialTrace | null)?.decision === 'refused'
  const explanation = refusedToken
    ? (credential as CredentialTrace | null)!.explanation
    : (refusedCall?.explanation ?? calls[0]?.explanation ?? outcome.message ?? '')
  return {
    endpoint: call.endpoint,
    decision: status === 200 ? 'allowed' : status === 401 ? 'refused' : 'failed',
    status,
    code: outcome.code,
    message: outcome.message,
    explanation,
    ...(outcome.counterfactual ? { counterfactual: outcome.counterfactual } : {}),
    calls,
  }
}
