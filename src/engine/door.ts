import { bearerToken } from './auth/bearer'
import { InvalidError, UndefinedError } from './errors'
import { ExchangeDraft } from './operator/exchange-log'
import { faultDraw } from './operator/fault-match'
import { faulted, replyFault, runsUnder } from './operator/fault-reply'
import type { FaultRule } from './operator/fault-rule'
import type { OperatorView } from './operator/state'
import { runPipeline, type EngineParts, type Exchange } from './pipeline'
import { presented, roleOf } from './presented'
import type { Call } from './wire/call'
import { bodyFormat, responseFormat } from './wire/formats'
import type { Route } from './wire/path'
import { CORS_HEADERS, errorReply, type Reply } from './wire/response'

/** The control plane: a request below `_account/`, answered as plain data. */
export type ControlPlane = (call: Call, path: string) => Promise<Reply>

/**
 * The engine's one door: a request as plain data in, its answer as plain data out, on every
 * path. A preflight is answered here; the control plane answers below `_account/`; everything
 * else is an endpoint call (`endpointCall`). `route` is the path's one reading: given by a layer
 * in front that has read it already (the HTTP server's hosted accounts), read here otherwise.
 */
export function answer(
  parts: EngineParts,
  control: ControlPlane,
  call: Call,
  route: Route,
): Promise<Reply> {
  if (route.kind === 'control') {
    // No CORS preflight is granted: another origin may not use the control plane.
    if (call.method === 'OPTIONS') return Promise.resolve(controlPreflight())
    return control(call, route.path)
  }
  if (call.method === 'OPTIONS') return Promise.resolve(preflight())
  return parts.history.gate.shared(() => endpointCall(parts, call, route))
}

/**
 * An endpoint call answered from inside a move through the account's history (a replay),
 * which holds the account alone: not through the gate, which would wait for the move itself.
 */
export const answerWithin = (parts: EngineParts, call: Call, route: Route): Promise<Reply> =>
  endpointCall(parts, call, route)

/**
 * An endpoint call: the operator's controls read once, a fault met when one is set, the
 * pipeline run (`runPipeline`), and the exchange kept in the journal when it is on.
 */
async function endpointCall(parts: EngineParts, call: Call, route: Route): Promise<Reply> {
  const exchange = begin(parts, call, route)
  let reply: Reply
  let failure: unknown
  let view: OperatorView | undefined
  try {
    const viewed = parts.operator.view()
    view = viewed instanceof Promise ? await viewed : viewed
    // Before the call counts, takes a fault or is journaled: the history's mark is of before it.
    exchange.history = view.journal > 0 ? parts.history.beginExchange() : undefined
    exchange.step = parts.operator.step?.() ?? 0
    if (view.journal > 0) {
      exchange.draft = new ExchangeDraft(call, exchange.endpoint, parts.clock)
    }
    if (route.kind === 'ambiguous') {
      throw new InvalidError(
        `the path \`${call.pathname}' is ambiguous: ${route.reason}; call <baseUrl>/<package>/<endpoint> with single slashes`,
      )
    }
    if (exchange.endpoint === null) throw undefinedCall(parts, route)
    reply = await withFaults(parts, exchange, view)
  } catch (error) {
    failure = error
    reply = errorReply(error, exchange.reply, parts.serviceName)
  }
  if (exchange.fault) reply = faulted(reply, exchange.fault)
  if (exchange.draft) {
    try {
      // Answered before its token was read: the journal still says what the token was.
      if (!exchange.draft.presented && view) {
        exchange.draft.observe(await presented(parts, exchange, view))
      }
      const kept = parts.operator.journal.add(exchange.draft.finish(reply, failure))
      if (kept) await kept
      if (exchange.history) parts.history.finishExchange(exchange.history)
    } catch {
      // The answer stands even when the journal cannot keep it (its database went away).
    }
  }
  return reply
}

/** The request's formats and endpoint, read once from its headers and its route. */
function begin({ serviceName }: EngineParts, call: Call, route: Route): Exchange {
  const format = bodyFormat(call.header('content-type'), serviceName)
  // Errors answer in the request's family too, even when its body can't be read.
  const reply = responseFormat(call.header('accept'), format ?? 'text', serviceName)
  // A call's path has no empty segment (`routeOf` refuses one): only an empty path names none.
  const endpoint =
    route.kind === 'call' && route.path !== '' ? route.path.replaceAll('/', '.') : null
  return { call, endpoint, format, reply }
}

function undefinedCall({ serviceName }: EngineParts, route: Route): UndefinedError {
  const path = route.kind === 'call' ? route.path : ''
  return new UndefinedError(`undefined ${serviceName} \`${path.split('/').join('.')}'`)
}

/**
 * A fault the operator set up meets the call: a `status` fault answers in its place, as does a
 * `respond` rule's answer, a dropped connection answers nothing, and the other kinds meet the
 * call's own answer. What the fault
 * does to the answer is `exchange.fault`, applied to whatever the call answers.
 */
async function withFaults(
  parts: EngineParts,
  exchange: Exchange,
  view: OperatorView,
): Promise<Reply> {
  let rule: FaultRule | undefined
  if (view.faulted) {
    // A rule may name the token's role: what it is, not only what it says.
    const token = await presented(parts, exchange, view)
    exchange.draft?.observe(token)
    const random = parts.account.randomNow()
    rule = await parts.operator.faults.take(
      exchange.endpoint!,
      bearerToken(exchange.call.header('authorization')) ?? null,
      roleOf(token),
      random.seed === undefined ? undefined : faultDraw(random, exchange.step ?? 0),
      exchange.call.signal,
    )
  }
  if (rule) {
    exchange.fault = replyFault(rule)
    if (!runsUnder(rule)) {
      // A respond rule's answer stands in the endpoint's place; the other kinds answer nothing.
      if (!rule.answer) return { status: 0, headers: {}, body: '' }
      const { status, headers, body } = rule.answer
      return { status, headers: { ...CORS_HEADERS, ...headers }, body }
    }
  }
  return runPipeline(parts, exchange, view)
}

function preflight(): Reply {
  return {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'access-control-allow-methods': 'POST',
      'access-control-allow-headers': 'authorization, content-type, accept',
      'access-control-max-age': '600',
    },
    body: '',
  }
}

const controlPreflight = (): Reply => ({ status: 204, headers: { allow: 'GET, POST' }, body: '' })
