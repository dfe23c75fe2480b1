/**
 * Shadow mode's core: every request goes to the upstream, whose answer is the one the client
 * gets; the same request is answered by the engine on the mirror account, off the client's
 * path, one at a time in the order the upstream answered; the two answers are compared and
 * every difference is logged as found, reported at the end and saved as a contract (decision
 * 075). `serve --upstream` carries it over HTTP; `verify --shadow` and `conformance --shadow`
 * drive it with recorded contracts and the conformance cases.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { schemaRef } from '../conformance/schema-ref'
import type { Call, Reply } from '../engine'
import { TooLargeError } from '../engine/errors'
import { refusal } from '../engine/wire/response'
import type { StreamedReply } from '../server/listener'
import { compareStage } from './compare-stage'
import { forward } from './forward'
import { followControl, mirrorStage } from './mirror-stage'
import type { Mirror } from './mirror'
import type { ParityReport } from './parity-report'
import { recordStage } from './record-stage'
import {
  createShadowState,
  NOT_COMPARED,
  type ShadowExchange,
  type ShadowOptions,
} from './shadow-state'
import type { Twins } from './twins'
import {
  Prefix,
  UpstreamError,
  type UpstreamAnswer,
  type UpstreamRequest,
  type UpstreamStream,
} from './upstream'

export { COMPARED_BODY_BYTES, type ShadowOptions } from './shadow-state'

export interface Shadow {
  /**
   * Answers a client's call as the upstream does, for the listener: its body read (at most
   * `SHADOW_MAX_BODY_BYTES`, else 413) and passed on with `pass`, the answer streamed back as
   * it comes; when the upstream gives none, or the body cannot be read, the client's
   * connection closes with no answer.
   */
  answer(call: Call): Promise<Reply | StreamedReply>
  /**
   * Passes a call (its body read already) to the upstream and resolves with its answer as it comes: its status and
   * headers, and its body a piece at a time, to be read to its end (rejects with an
   * `UpstreamError` when there is no answer; reading throws one when the upstream breaks it
   * off). The shadow keeps the body's first `COMPARED_BODY_BYTES` only; once it has ended, the
   * engine's answer and the comparison follow in turn. Stopping early drops the upstream's
   * connection, and the exchange is not compared.
   */
  pass(call: Call, body: Uint8Array, label?: string): Promise<UpstreamStream>
  /**
   * `pass` for a request given as data (a recorded contract, a conformance case), with the
   * answer's body read whole: for answers a runner reads whole anyway.
   */
  exchange(request: UpstreamRequest, label?: string): Promise<UpstreamAnswer>
  /** Resolves once every comparison queued so far is done. */
  settled(): Promise<void>
  /**
   * Gives the comparisons queued `withinMs` more to be done, then stops comparing: those left
   * are counted as not compared, and the report holds still, to be written.
   */
  stop(withinMs: number): Promise<void>
  readonly report: ParityReport
  readonly twins: Twins
  readonly mirror: Mirror
  /** Writes `report.json` and `report.txt` to the report directory; their paths. */
  writeReport(): Promise<string[]>
  close(): Promise<void>
}

/** The largest body the shadow reads to pass on (the service itself refuses far less). */
export const SHADOW_MAX_BODY_BYTES = 16 * 1024 * 1024

/** No answer: the client's connection closes, as the upstream's did (or never answered). */
const NO_ANSWER: Reply = {
  status: 0,
  headers: {},
  body: '',
  fault: { kind: 'network', delayMs: 0, ending: 'drop' },
}

/**
 * Starts the mirror account and returns the shadow over `options.upstream`. Each exchange goes
 * through the stages in turn, over one state: forward (to the upstream, its answer back to the
 * client), then, queued in the order the upstream answered, mirror (the engine's answer on the
 * mirror account), compare, and record (a difference in the report, said, saved as a contract).
 */
export async function createShadow(options: ShadowOptions): Promise<Shadow> {
  const state = await createShadowState(options)
  const { report, twins, mirror, upstream } = state

  /** What follows an exchange whose answer has ended, in the queue. */
  async function stages(exchange: ShadowExchange): Promise<void> {
    const { route, answer } = exchange
    const [first] = route.kind === 'call' ? route.path.split('/') : []
    if (route.kind === 'control') return followControl(state, exchange, route.path)
    if (route.kind === 'outside') return report.notCompared(NOT_COMPARED.outside)
    if (first === '_accounts' || first === 'a') return report.notCompared(NOT_COMPARED.hosted)
    if (answer.status === 429) {
      report.notCompared(NOT_COMPARED.rateLimited)
      const retry = headerOf(answer, 'retry-after')
      return state.say(
        `shadow: ${exchange.label} ${exchange.endpoint}: the upstream answered 429${retry ? ` (retry-after ${retry})` : ''}, passed to the client as it came, not compared`,
      )
    }
    // A status fault answered in place of the call: the upstream ran nothing, nor does the mirror.
    const fault = headerOf(answer, 'x-fault')
    if (fault === 'status') return report.notCompared(NOT_COMPARED.fault)
    const mirrored = await mirrorStage(state, exchange)
    if (fault !== undefined) return report.notCompared(NOT_COMPARED.fault)
    const verdict = await compareStage(state, exchange, mirrored)
    await recordStage(state, exchange, mirrored, verdict)
  }

  const pass = (call: Call, body: Uint8Array, label?: string) =>
    forward(state, call, body, label, stages)

  return {
    report,
    twins,
    mirror,
    pass,
    async answer(call) {
      let body: Uint8Array
      try {
        body = await call.body(SHADOW_MAX_BODY_BYTES)
      } catch (error) {
        if (error instanceof TooLargeError)
          return refusal(
            413,
            `the shadow passes on bodies of at most ${SHADOW_MAX_BODY_BYTES} bytes`,
          )
        return NO_ANSWER
      }
      let answer: UpstreamStream
      try {
        answer = await pass(call, body)
      } catch (error) {
        if (!(error instanceof UpstreamError)) console.error('shadow fault:', error)
        return NO_ANSWER
      }
      return { ...answer, body: told(answer.body) }
    },
    async exchange(request, label) {
      const { body, cancel: _cancel, ...head } = await pass(callOf(request), request.body, label)
      const whole = new Prefix(Infinity)
      for await (const piece of body) whole.add(piece)
      return { ...head, body: whole.bytes() }
    },
    settled: () => state.queue,
    async stop(withinMs) {
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([
        state.queue,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, withinMs)))),
      ])
      clearTimeout(timer)
      if (state.pending > 0) report.notCompared(NOT_COMPARED.stopped, state.pending)
      report.freeze()
      state.stopped = true
    },
    async writeReport() {
      const { reportDir } = state
      if (reportDir === undefined) return []
      await mkdir(reportDir, { recursive: true })
      const json = join(reportDir, 'report.json')
      const text = join(reportDir, 'report.txt')
      const written = { $schema: schemaRef('shadow-report', resolve(json)), ...report.toJSON() }
      await writeFile(json, `${twins.redact(JSON.stringify(written, null, 2))}\n`)
      await writeFile(text, twins.redact(report.text()))
      return [json, text]
    },
    async close() {
      // Once stopped, a comparison still running is let go: its store closes under it.
      if (!state.stopped) await state.queue
      state.stopped = true
      upstream.close()
      await mirror.close()
    },
  }
}

/** An upstream answer's header, by its lowercase name. */
function headerOf(answer: UpstreamAnswer, name: string): string | undefined {
  const values = answer.headers.filter(([key]) => key.toLowerCase() === name).map(([, v]) => v)
  return values.length === 0 ? undefined : values.join(', ')
}

/** The pieces of an answer's body; a fault of the shadow's own that breaks it off is logged. */
async function* told(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  try {
    yield* body
  } catch (error) {
    if (!(error instanceof UpstreamError)) console.error('shadow fault:', error)
    throw error
  }
}

/** A request given as data, as the call the stages read: its path below the base URL. */
function callOf(request: UpstreamRequest): Call {
  const headers = new Map<string, string>()
  for (const [name, value] of request.headers) {
    const key = name.toLowerCase()
    const seen = headers.get(key)
    headers.set(key, seen === undefined ? value : `${seen}, ${value}`)
  }
  return {
    method: request.method,
    origin: 'http://shadow',
    pathname: request.pathname,
    search: request.search,
    header: (name) => headers.get(name) ?? null,
    headers: () => headers,
    body: async (limit) => {
      if (request.body.length > limit) throw new TooLargeError(limit)
      return request.body
    },
  }
}
