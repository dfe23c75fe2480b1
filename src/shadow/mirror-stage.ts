/**
 * Shadow mode's second stage: the call the upstream answered, answered again by the engine on
 * the mirror account, its tokens and cursors swapped for their twins, at a moment the upstream
 * could have answered it; and a control-plane request the upstream obeyed, followed there.
 */
import { bearerToken, type Call } from '../engine'
import { TooLargeError } from '../engine/errors'
import { bodyFormat } from '../engine/wire/formats'
import {
  keepWriter,
  NOT_COMPARED,
  seenOf,
  type Mirrored,
  type ShadowExchange,
  type ShadowState,
} from './shadow-state'

/** The call as the mirror's engine reads it: tokens and cursors swapped for their twins. */
export function mirrorCall(
  { base, basePath, twins, serviceName }: ShadowState,
  call: Call,
  body: Uint8Array,
): Mirrored['sent'] {
  const headers = new Map(call.headers())
  headers.set('host', base.host)
  const authorization = headers.get('authorization')
  const token = bearerToken(authorization)
  const twin = token === undefined ? undefined : twins.engineOf(token)
  if (authorization && token && twin)
    headers.set('authorization', authorization.replace(token, twin))
  const format = bodyFormat(headers.get('content-type') ?? null, serviceName)
  let sent = body
  if (format === 'msgpack') sent = twins.swapMsgpack(body)
  else if (body.length > 0) {
    try {
      const text = new TextDecoder('utf-8', { fatal: true }).decode(body)
      const swapped = twins.swapText(text)
      if (swapped !== text) sent = new TextEncoder().encode(swapped)
    } catch {
      // Not text: passed as it came.
    }
  }
  const mirrored: Call = {
    method: call.method,
    origin: base.origin,
    pathname: `${basePath}${call.pathname}`,
    search: twins.swapQuery(call.search),
    header: (name) => headers.get(name) ?? null,
    headers: () => headers,
    body: async (limit) => {
      if (sent.length > limit) throw new TooLargeError(limit)
      return sent
    },
  }
  return { call: mirrored, body: sent, headers }
}

/**
 * Answers the exchange on the mirror, between the moments the upstream had it, and leaves the
 * mirror's answer, its record and what it read and wrote on the exchange.
 */
export async function mirrorStage(state: ShadowState, exchange: ShadowExchange): Promise<Mirrored> {
  const { mirror, known, twins } = state
  // A token the engine has no twin of is the upstream's alone: its uses are put down to it.
  const presented = bearerToken(exchange.call.header('authorization'))
  if (presented !== undefined && twins.engineOf(presented) === undefined)
    twins.oneSided(presented, 'token')
  const sent = mirrorCall(state, exchange.call, exchange.body)
  mirror.at(exchange.sentAt, exchange.answeredAt)
  known.begin(exchange.number)
  let answered: Awaited<ReturnType<typeof mirror.answer>>
  try {
    answered = await mirror.answer(sent.call)
  } catch (error) {
    known.end()
    throw error
  }
  const mirrored: Mirrored = { ...answered, touched: known.end(), sent }
  keepWriter(state, exchange.number, mirrored)
  exchange.mirrored = mirrored
  return mirrored
}

/** Does on the mirror what a control-plane request (below `_account/`) the upstream obeyed did. */
export async function followControl(
  state: ShadowState,
  exchange: ShadowExchange,
  path: string,
): Promise<void> {
  state.report.notCompared(NOT_COMPARED.control)
  const { answer } = exchange
  if (answer.status < 200 || answer.status > 299) return
  const parse = (bytes: Uint8Array) => {
    try {
      return bytes.length ? (JSON.parse(new TextDecoder().decode(bytes)) as unknown) : undefined
    } catch {
      return undefined
    }
  }
  state.mirror.at(exchange.sentAt, exchange.answeredAt)
  const unfollowed = await state.mirror.follow(
    exchange.call.method,
    path,
    parse(exchange.body),
    parse(seenOf(answer).body),
  )
  if (unfollowed) state.say(`shadow: ${unfollowed}`)
}
