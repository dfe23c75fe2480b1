/**
 * The state shadow mode's stages share (decision 075): the run's parts, made once by
 * `createShadowState` (the mirror, the twins, what is known of the upstream's state, the
 * report, the rate budget, the queue the comparisons take turns in), and each exchange as the
 * stages fill it in turn — forward (`forward.ts`), mirror (`mirror-stage.ts`), compare
 * (`compare-stage.ts`), record (`record-stage.ts`) — as the engine's pipeline is cut.
 */
import { controlOver } from '../conformance/fetch-target'
import type { Target } from '../conformance/run'
import type { Call, ExchangeRecord, Reply } from '../engine'
import type { Route } from '../engine/wire/path'
import type { Seen } from './answers'
import { KnownState, type Touched } from './known-state'
import { Mirror } from './mirror'
import { ParityReport } from './parity-report'
import { RateBudget } from './rate-budget'
import { Twins } from './twins'
import {
  decodedBody,
  decodedPrefix,
  headerRecord,
  type Upstream,
  type UpstreamAnswer,
} from './upstream'
import { basePathOf } from '../client/wire'

/**
 * The most of an upstream answer's body the shadow keeps to compare: a longer one is passed to
 * the client as it comes, and compared by its first bytes (decision 075). Every answer the
 * engine's own limits let it give fits whole.
 */
export const COMPARED_BODY_BYTES = 4 * 1024 * 1024

/** Why an exchange was passed on and not compared, as the report counts them. */
export const NOT_COMPARED = {
  unended: 'answers that did not end (the client went away, or the upstream broke off)',
  stopped: 'exchanges the shadow stopped before comparing (it was told to stop)',
  rateLimited: 'rate limited by the upstream (429)',
  fault: 'faults the upstream was told to inject (x-fault)',
  noAnswer: 'no answer from the upstream',
  control: 'requests to the upstream’s control plane (/_account)',
  hosted: 'requests to the upstream’s hosted accounts (/_accounts, /a/<id>)',
  outside: 'requests outside the base URL',
}

/** Records of exchanges that wrote, kept for the contracts of later differences that read it. */
const KEPT_WRITERS = 10_000

export interface ShadowOptions {
  upstream: Upstream
  serviceName: string
  /** The upstream's secret: the client presents it, the engine gets the mirror's own. */
  upstreamSecret?: string
  /** Where `report.json`, `report.txt` and `contracts/` go; nothing is written without it. */
  reportDir?: string
  /** Where each difference is said as it is found (a line each). */
  log?: (line: string) => void
  /** Ask the upstream again before counting a difference of a call that writes nothing (default). */
  askAgain?: boolean
  /** Milliseconds, for the rate budget. */
  now?: () => number
  /**
   * Every call to the upstream waits its turn within its rate limit (`drift`): asking again
   * then waits too, and is never left out for the budget.
   */
  paced?: boolean
}

/** The run's parts every stage reads, made once. */
export interface ShadowState {
  upstream: Upstream
  serviceName: string
  reportDir: string | undefined
  askAgain: boolean
  base: URL
  /** The upstream base URL's path, without a trailing slash. */
  basePath: string
  twins: Twins
  known: KnownState
  mirror: Mirror
  /** The mirror as a conformance target, for the counterfactual of a refusal. */
  mirrorTarget: Target
  report: ParityReport
  budget: RateBudget
  /** Exchanges that wrote: their records and what they touched, the latest `KEPT_WRITERS`. */
  writers: Map<number, { record: ExchangeRecord; touched: Touched }>
  /** Exchanges passed on so far. */
  count: number
  /** Jobs queued and not yet done. */
  pending: number
  /** The comparisons, one at a time in the order the upstream answered. */
  queue: Promise<void>
  /** Told to stop: nothing more is compared, said or counted. */
  stopped: boolean
  /** Says a line (redacted) unless stopped. */
  say(line: string): void
}

/** One exchange, as the stages fill it in. */
export interface ShadowExchange {
  /** Its number in the run, from 1. */
  number: number
  /** How reports name it: a test's label, or `#<number>`. */
  label: string
  /** The client's call; its path is below the upstream's base URL. */
  call: Call
  /** Its body, read whole. */
  body: Uint8Array
  route: Route
  /** The endpoint it calls (`keyv.get`), or its path when it calls none. */
  endpoint: string
  /** The format of its body (`json`, `msgpack`, …), or `other`. */
  format: string
  sentAt: number
  answeredAt: number
  /** The upstream's answer as kept (forward). */
  answer: KeptAnswer
  /** The mirror's answer, its record and what it touched (mirror). */
  mirrored?: Mirrored
}

/** What the mirror stage leaves on an exchange. */
export interface Mirrored {
  reply: Reply
  record: ExchangeRecord | undefined
  touched: Touched
  /** The call as the mirror read it, its tokens and cursors swapped for their twins. */
  sent: { call: Call; body: Uint8Array; headers: Map<string, string> }
}

/** An answer as the shadow keeps it to compare: its body's first bytes, and its whole size. */
export interface KeptAnswer extends UpstreamAnswer {
  /** Whether `body` is the whole body. */
  whole: boolean
  /** The whole body's size in bytes, as it came. */
  bytes: number
}

/** Starts the mirror account and makes the state the stages share. */
export async function createShadowState(options: ShadowOptions): Promise<ShadowState> {
  const { upstream, serviceName } = options
  const log = options.log ?? ((line: string) => console.log(line))
  const base = new URL(upstream.baseUrl)
  const basePath = basePathOf(base)
  const twins = new Twins()
  const known = new KnownState()
  const mirror = await Mirror.start({
    baseUrl: upstream.baseUrl,
    serviceName,
    known,
    twins,
    ...(options.upstreamSecret === undefined ? {} : { upstreamSecret: options.upstreamSecret }),
  })
  const state: ShadowState = {
    upstream,
    serviceName,
    reportDir: options.reportDir,
    askAgain: options.askAgain ?? true,
    base,
    basePath,
    twins,
    known,
    mirror,
    mirrorTarget: {
      name: 'mirror',
      baseUrl: upstream.baseUrl,
      serviceName,
      send: () => Promise.reject(new Error('not used')),
      control: controlOver((request) => mirror.engine.handle(request), upstream.baseUrl),
    },
    report: new ParityReport(`${base.origin}${basePath}`, serviceName),
    budget: new RateBudget(options.now, options.paced ?? false),
    writers: new Map(),
    count: 0,
    pending: 0,
    queue: Promise.resolve(),
    stopped: false,
    say(line) {
      if (!state.stopped) log(twins.redact(line))
    },
  }
  return state
}

/** Queues `job` after the comparisons before it; an error in it is said, not thrown. */
export function enqueue(state: ShadowState, job: () => Promise<void> | void): void {
  if (state.stopped) return
  state.pending++
  state.queue = state.queue.then(async () => {
    try {
      if (!state.stopped) await job()
    } catch (error) {
      state.say(`shadow: could not compare an exchange: ${(error as Error).stack ?? String(error)}`)
    } finally {
      state.pending--
    }
  })
}

/** Keeps what an exchange that wrote touched, for the contracts of later differences. */
export function keepWriter(state: ShadowState, exchange: number, mirrored: Mirrored): void {
  if (mirrored.touched.written.size === 0 || !mirrored.record) return
  state.writers.set(exchange, { record: mirrored.record, touched: mirrored.touched })
  if (state.writers.size > KEPT_WRITERS) state.writers.delete(state.writers.keys().next().value!)
}

/** A kept answer as compared: its content encoding undone, and said to be cut when it was. */
export function seenOf(answer: KeptAnswer): Seen {
  const headers = headerRecord(answer.headers)
  if (answer.whole)
    return { status: answer.status, headers, body: decodedBody(headers, answer.body) }
  return {
    status: answer.status,
    headers,
    body: decodedPrefix(headers, answer.body),
    cutFrom: answer.bytes,
  }
}

/** The headers of a call, as one record: names in lowercase. */
export const headersOf = (call: Call): Record<string, string> => Object.fromEntries(call.headers())
