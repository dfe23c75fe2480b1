/**
 * Shadow mode's first stage: the client's call passed to the upstream, whose answer goes back
 * as it comes while its first `COMPARED_BODY_BYTES` are kept; once it has ended, the exchange
 * is queued for the stages that follow it (`shadow.ts` runs them).
 */
import type { Call } from '../engine'
import { bodyFormat } from '../engine/wire/formats'
import {
  COMPARED_BODY_BYTES,
  enqueue,
  NOT_COMPARED,
  type KeptAnswer,
  type ShadowExchange,
  type ShadowState,
} from './shadow-state'
import {
  headerRecord,
  piecesOf,
  Prefix,
  type UpstreamAnswer,
  type UpstreamRequest,
  type UpstreamStream,
} from './upstream'

/** The request the upstream is sent: the call's method, path, query, headers and body. */
export function upstreamRequest(call: Call, body: Uint8Array): UpstreamRequest {
  return {
    method: call.method,
    pathname: call.pathname,
    search: call.search,
    headers: [...call.headers()],
    body,
  }
}

/**
 * Passes `call` (its body read already) to the upstream and resolves with its answer as it
 * comes. Once the answer has ended, `ended` is queued with the exchange filled in; one that
 * does not end (the client went away, the upstream broke off) is counted as not compared.
 */
export async function forward(
  state: ShadowState,
  call: Call,
  body: Uint8Array,
  label: string | undefined,
  ended: (exchange: ShadowExchange) => Promise<void> | void,
): Promise<UpstreamStream> {
  const number = ++state.count
  const shown = label ?? `#${number}`
  const route = state.mirror.engine.route(`${state.basePath}${call.pathname}`)
  state.budget.sending()
  const sentAt = Date.now()
  let answer: UpstreamAnswer | UpstreamStream
  try {
    answer = await state.upstream.send(upstreamRequest(call, body))
  } catch (error) {
    enqueue(state, () => {
      state.report.notCompared(NOT_COMPARED.noAnswer)
      state.say(
        `shadow: ${shown} ${call.pathname}: no answer from the upstream (${(error as Error).message}); the client's connection is closed too, not compared`,
      )
    })
    throw error
  }
  const answeredAt = Date.now()
  const { status, statusMessage, headers } = answer
  state.budget.answered(status, headerRecord(headers))
  const head = { status, ...(statusMessage === undefined ? {} : { statusMessage }), headers }
  const kept = new Prefix(COMPARED_BODY_BYTES)
  let settled = false
  /** Once, whichever comes first: the body's end, a break in it, or the client's leaving. */
  const settle = (whole: boolean) => {
    if (settled) return
    settled = true
    if (whole) {
      const answer: KeptAnswer = {
        ...head,
        body: kept.bytes(),
        whole: kept.whole,
        bytes: kept.size,
      }
      const exchange: ShadowExchange = {
        ...{ number, label: shown, call, body, route, sentAt, answeredAt, answer },
        endpoint:
          route.kind === 'call' && route.path !== ''
            ? route.path.replaceAll('/', '.')
            : call.pathname,
        format: bodyFormat(call.header('content-type'), state.serviceName) ?? 'other',
      }
      enqueue(state, () => ended(exchange))
    } else
      enqueue(state, () => {
        state.report.notCompared(NOT_COMPARED.unended)
        state.say(
          `shadow: ${shown} ${call.pathname}: the answer did not end (the client went away, or the upstream broke off), not compared`,
        )
      })
  }
  async function* pieces(): AsyncGenerator<Uint8Array> {
    let whole = false
    try {
      for await (const piece of piecesOf(answer)) {
        kept.add(piece)
        yield piece
      }
      whole = true
    } finally {
      settle(whole)
    }
  }
  return {
    ...head,
    body: pieces(),
    cancel() {
      settle(false)
      if ('cancel' in answer) answer.cancel()
    },
  }
}
