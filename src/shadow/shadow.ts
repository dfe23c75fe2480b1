/**
 * Shadow mode's core: every request goes to the upstream, whose answer is the one the client
 * gets; the same request is answered by the engine on the mirror account, off the client's
 * path, one at a time in the order the upstream answered; the two answers are compared and
 * every difference is logged as found, reported at the end and saved as a contract (decision
 * 075). `serve --upstream` carries it over HTTP; `verify --shadow` and `conformance --shadow`
 * drive it with recorded contracts and the conformance cases.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { readSent } from '../client/exchange'
import { toBase64 } from '../conformance/base64'
import { TOKEN_SHAPE } from '../conformance/contract/answer'
import type { Decoded } from '../conformance/compare'
import { counterfactualOf } from '../conformance/counterfactual'
import { controlOver } from '../conformance/fetch-target'
import { readableBody } from '../conformance/run'
import { bearerToken, type Call, type ExchangeRecord } from '../engine'
import { TooLargeError } from '../engine/errors'
import { bodyFormat } from '../engine/wire/formats'
import type { Route } from '../engine/wire/path'
import { compareAnswers, comparePrefix, type Seen } from './answers'
import { differenceContract, withUpstreamAnswer } from './difference-contract'
import { describeItem, keyItem, KnownState, procItem, type Item, type Touched } from './known-state'
import { Mirror } from './mirror'
import {
  differenceText,
  ParityReport,
  type AskedAgain,
  type Outcome,
  type ShownAnswer,
  type ShownRequest,
} from './parity-report'
import { RateBudget } from './rate-budget'
import { writesNothing } from './read-only'
import { Twins } from './twins'
import {
  decodedBody,
  decodedPrefix,
  headerRecord,
  piecesOf,
  Prefix,
  readPrefix,
  type Upstream,
  type UpstreamAnswer,
  type UpstreamRequest,
  type UpstreamStream,
} from './upstream'

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
}

export interface Shadow {
  /**
   * Passes a request to the upstream and resolves with its answer as it comes: its status and
   * headers, and its body a piece at a time, to be read to its end (rejects with an
   * `UpstreamError` when there is no answer; reading throws one when the upstream breaks it
   * off). The shadow keeps the body's first `COMPARED_BODY_BYTES` only; once it has ended, the
   * engine's answer and the comparison follow in turn. Stopping early drops the upstream's
   * connection, and the exchange is not compared.
   */
  pass(request: UpstreamRequest, label?: string): Promise<UpstreamStream>
  /** `pass`, with the answer's body read whole: for answers a runner reads whole anyway. */
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

/**
 * The most of an upstream answer's body the shadow keeps to compare: a longer one is passed to
 * the client as it comes, and compared by its first bytes (decision 075). Every answer the
 * engine's own limits let it give fits whole.
 */
export const COMPARED_BODY_BYTES = 4 * 1024 * 1024

/** Why an exchange was passed on and not compared, as the report counts them. */
const NOT_COMPARED = {
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

const lower = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]))

const bytesOf = (body: string | Uint8Array) =>
  typeof body === 'string' ? new TextEncoder().encode(body) : body

const SHOWN_REQUEST_HEADERS = ['authorization', 'content-type', 'accept', 'content-encoding']
const SHOWN_ANSWER_HEADERS = ['content-type', 'x-cursor', 'retry-after', 'x-rate-limit', 'x-fault']

/** Starts the mirror account and returns the shadow over `options.upstream`. */
export async function createShadow(options: ShadowOptions): Promise<Shadow> {
  const { upstream, serviceName, reportDir, askAgain = true } = options
  const log = options.log ?? ((line: string) => console.log(line))
  const base = new URL(upstream.baseUrl)
  const basePath = base.pathname.replace(/\/+$/, '')
  const twins = new Twins()
  const known = new KnownState()
  const mirror = await Mirror.start({
    baseUrl: upstream.baseUrl,
    serviceName,
    known,
    twins,
    ...(options.upstreamSecret === undefined ? {} : { upstreamSecret: options.upstreamSecret }),
  })
  const mirrorTarget = {
    name: 'mirror',
    baseUrl: upstream.baseUrl,
    serviceName,
    send: () => Promise.reject(new Error('not used')),
    control: controlOver((request) => mirror.engine.handle(request), upstream.baseUrl),
  }
  const report = new ParityReport(`${base.origin}${basePath}`, serviceName)
  const budget = new RateBudget(options.now)
  const writers = new Map<number, { record: ExchangeRecord; touched: Touched }>()
  let count = 0
  let queue = Promise.resolve()
  /** Jobs queued and not yet done. */
  let pending = 0
  /** Told to stop: nothing more is compared, said or counted. */
  let stopped = false
  const redact = (text: string) => twins.redact(text)
  const say = (line: string) => {
    if (!stopped) log(twins.redact(line))
  }

  function enqueue(job: () => Promise<void> | void): void {
    if (stopped) return
    pending++
    queue = queue.then(async () => {
      try {
        if (!stopped) await job()
      } catch (error) {
        say(`shadow: could not compare an exchange: ${(error as Error).stack ?? String(error)}`)
      } finally {
        pending--
      }
    })
  }

  /** The request as the mirror's engine reads it: tokens and cursors swapped for their twins. */
  function mirrorCall(request: UpstreamRequest): {
    call: Call
    body: Uint8Array
    headers: Map<string, string>
  } {
    const headers = new Map<string, string>()
    for (const [name, value] of request.headers) {
      const key = name.toLowerCase()
      const seen = headers.get(key)
      headers.set(key, seen === undefined ? value : `${seen}, ${value}`)
    }
    headers.set('host', base.host)
    const authorization = headers.get('authorization')
    const token = bearerToken(authorization)
    const twin = token === undefined ? undefined : twins.engineOf(token)
    if (authorization && token && twin)
      headers.set('authorization', authorization.replace(token, twin))
    const format = bodyFormat(headers.get('content-type') ?? null, serviceName)
    let body = request.body
    if (format === 'msgpack') body = twins.swapMsgpack(body)
    else if (body.length > 0) {
      try {
        const text = new TextDecoder('utf-8', { fatal: true }).decode(body)
        const swapped = twins.swapText(text)
        if (swapped !== text) body = new TextEncoder().encode(swapped)
      } catch {
        // Not text: passed as it came.
      }
    }
    const call: Call = {
      method: request.method,
      origin: base.origin,
      pathname: `${basePath}${request.pathname}`,
      search: twins.swapQuery(request.search),
      header: (name) => headers.get(name) ?? null,
      headers: () => headers,
      body: async (limit) => {
        if (body.length > limit) throw new TooLargeError(limit)
        return body
      },
    }
    return { call, body, headers }
  }

  function shownRequest(request: UpstreamRequest): ShownRequest {
    const headers = headerRecord(request.headers)
    const shown = Object.fromEntries(
      SHOWN_REQUEST_HEADERS.filter((name) => headers[name] !== undefined).map((name) => [
        name,
        twins.redact(headers[name]!),
      ]),
    )
    return {
      method: request.method,
      path: twins.redact(`${request.pathname}${request.search}`),
      headers: shown,
      body: twins.redact(readableBody(headers, request.body, redact)),
    }
  }

  function shownAnswer(seen: Seen): ShownAnswer {
    return {
      status: seen.status,
      headers: Object.fromEntries(
        SHOWN_ANSWER_HEADERS.filter((name) => seen.headers[name] !== undefined).map((name) => [
          name,
          twins.redact(seen.headers[name]!),
        ]),
      ),
      body: twins.redact(readableBody(seen.headers, seen.body, redact)),
    }
  }

  /**
   * Gives a role to what one side made and the other did not (an authorization, a cursor, a
   * token inside an answer), so no report shows it and later uses are put down to `exchange`.
   */
  function holdOneSided(
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

  /**
   * What an exchange that may write and differed may have left different on the two sides: the
   * key or procedure it names (whichever side refused it), or what the mirror wrote while
   * running a composition or a stored procedure; what the upstream wrote there is not known.
   */
  function divergedBy(record: ExchangeRecord | undefined, touched: Touched): Array<Item | '*'> {
    if (!record) return ['*']
    const endpoint = record.trace.endpoint ?? ''
    if (endpoint === 'auth.create') return []
    const sent = readSent(record, serviceName).call
    const args: Record<string, unknown> = {
      ...Object.fromEntries(new URL(record.request.url).searchParams),
      ...sent?.args,
    }
    const named = (value: unknown) =>
      typeof value === 'string' || typeof value === 'number' ? String(value) : undefined
    if (endpoint === 'keyv.set' || endpoint === 'keyv.delete') {
      const key = named(args.key ?? sent?.input)
      const bucket = args.bucket === undefined ? 'default' : named(args.bucket)
      return key !== undefined && bucket !== undefined ? [keyItem(bucket, key)] : ['*']
    }
    if (new RegExp(`^${serviceName}\\.(create|update|delete|deploy)$`).test(endpoint)) {
      const name = named(args.name)
      return name === undefined ? ['*'] : [procItem(name)]
    }
    return [...touched.written]
  }

  /** The exchanges of the run that wrote what `touched` read, and what those read, in order. */
  function dependencies(exchange: number, touched: Touched): ExchangeRecord[] {
    const found = new Set<number>()
    const stack = [touched]
    while (stack.length > 0) {
      for (const item of stack.pop()!.read) {
        const from = item.startsWith('b')
          ? known.writersOfBucket(item.slice(1))
          : [known.writerOf(item)]
        for (const writer of from) {
          if (writer === undefined || writer === exchange || found.has(writer)) continue
          const kept = writers.get(writer)
          if (!kept) continue
          found.add(writer)
          stack.push(kept.touched)
        }
      }
    }
    return [...found].sort((a, b) => a - b).map((writer) => writers.get(writer)!.record)
  }

  async function saveContract(
    exchange: number,
    name: string,
    endpoint: string,
    records: ExchangeRecord[],
  ): Promise<{ contract?: string; noContract?: string }> {
    if (reportDir === undefined || stopped) return {}
    try {
      const text = differenceContract(
        records,
        { name, serviceName, baseUrl: upstream.baseUrl, secrets: await mirror.secrets() },
        twins,
      )
      const file = join(
        reportDir,
        'contracts',
        `${String(exchange).padStart(3, '0')}-${endpoint.replace(/[^A-Za-z0-9._-]/g, '_')}.json`,
      )
      await mkdir(join(reportDir, 'contracts'), { recursive: true })
      await writeFile(file, text)
      return { contract: file }
    } catch (error) {
      return { noContract: (error as Error).message }
    }
  }

  async function compare(
    exchange: number,
    label: string,
    request: UpstreamRequest,
    answer: KeptAnswer,
    route: Route,
    sentAt: number,
    answeredAt: number,
  ) {
    const headers = headerRecord(answer.headers)
    const endpoint =
      route.kind === 'call' && route.path !== ''
        ? route.path.replaceAll('/', '.')
        : request.pathname
    const format =
      bodyFormat(headerRecord(request.headers)['content-type'] ?? null, serviceName) ?? 'other'
    if (answer.status === 429) {
      report.notCompared(NOT_COMPARED.rateLimited)
      say(
        `shadow: ${label} ${endpoint}: the upstream answered 429${headers['retry-after'] ? ` (retry-after ${headers['retry-after']})` : ''}, passed to the client as it came, not compared`,
      )
      return
    }
    // A status fault answered in place of the call: the upstream ran nothing, nor does the mirror.
    if (headers['x-fault'] === 'status') return report.notCompared(NOT_COMPARED.fault)
    const presented = bearerToken(headerRecord(request.headers).authorization)
    if (presented !== undefined && twins.engineOf(presented) === undefined)
      twins.oneSided(presented, 'token')
    const sent = mirrorCall(request)
    mirror.at(sentAt, answeredAt)
    known.begin(exchange)
    let mirrored: Awaited<ReturnType<Mirror['answer']>>
    try {
      mirrored = await mirror.answer(sent.call)
    } catch (error) {
      known.end()
      throw error
    }
    const touched = known.end()
    const { reply, record } = mirrored
    if (touched.written.size > 0 && record) {
      writers.set(exchange, { record, touched })
      if (writers.size > KEPT_WRITERS) writers.delete(writers.keys().next().value!)
    }
    if (headers['x-fault'] !== undefined) return report.notCompared(NOT_COMPARED.fault)
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
    /** Said in the report when only the first bytes of the upstream's answer were compared. */
    const prefix =
      up.cutFrom === undefined
        ? undefined
        : `the first ${up.body.length} bytes of the upstream's answer of ${up.cutFrom}`
    if (prefix) report.comparedPrefix()
    let { differences } = compared
    holdOneSided(exchange, endpoint, record, up, down, compared)
    if (differences.length === 0) return report.count(endpoint, format, 'agreed')

    let outcome: Exclude<Outcome, 'agreed'> = 'differs'
    let because: string | undefined
    let askedAgain: AskedAgain = 'not asked'
    const role = presented === undefined ? undefined : twins.roleOf(presented)
    const follows =
      (role === undefined ? undefined : twins.originOf(role)) ?? known.divergedBy(touched)
    const unknownToken =
      presented !== undefined &&
      twins.engineOf(presented) === undefined &&
      role?.startsWith('token')
    if (follows !== undefined) {
      outcome = 'follows'
      because = `#${follows} left the two accounts different, and this exchange uses what it left`
    } else if (unknownToken && answer.status !== 401) {
      outcome = 'unknown-state'
      because =
        'it presented a token the engine never saw made (made before the run, or not through the shadow)'
    } else {
      const listed =
        endpoint === 'keyv.scan' && compared.upstream?.ok && Array.isArray(compared.upstream.value)
          ? (compared.upstream.value as unknown[]).map(String)
          : undefined
      const unknown = known.unknownReads(touched, listed)
      if (unknown.length > 0) {
        outcome = 'unknown-state'
        because = `it read what the run never wrote: ${unknown.slice(0, 3).map(describeItem).join(', ')}${unknown.length > 3 ? ` and ${unknown.length - 3} more` : ''}`
      }
    }
    const writes =
      !record ||
      !writesNothing(
        record.trace.endpoint,
        record.trace.calls,
        record.trace.droppedCalls,
        serviceName,
      )
    if (outcome === 'differs' && askAgain) {
      if (writes) askedAgain = 'not asked: it writes'
      else if (!budget.mayAskAgain()) askedAgain = 'not asked: the rate limit'
      else {
        budget.sending()
        const again = await upstream
          .send(request)
          .then(async (answer) => ({
            ...answer,
            ...(await readPrefix(answer, COMPARED_BODY_BYTES)),
          }))
          .catch(() => undefined)
        if (again) budget.answered(again.status, headerRecord(again.headers))
        if (!again || again.status === 429) askedAgain = 'not asked: the rate limit'
        else {
          const second = seenOf(again)
          const varied = new Set(
            (up.cutFrom === undefined && second.cutFrom === undefined
              ? compareAnswers(up, second, twins, { endpoint, now, pair: false })
              : comparePrefix(up, second, twins, now)
            ).differences.map((d) => d.what),
          )
          askedAgain = varied.size === 0 ? 'same answer' : 'a different answer'
          const kept =
            varied.has('status') || varied.has('answer')
              ? []
              : differences.filter((d) => !varied.has(d.what))
          if (varied.size > 0 && kept.length === 0) {
            outcome = 'noise'
            because = `the upstream answered differently when asked the same again (${[...varied].join(', ')})`
          } else if (varied.size > 0) {
            because = `the upstream’s ${[...varied].join(', ')} varied when asked again and are left out`
            differences = kept
          }
        }
      }
    }
    if (writes && outcome !== 'noise')
      known.diverge(divergedBy(record, touched), outcome === 'follows' ? follows! : exchange)
    const counterfactual =
      outcome === 'differs' && compared.engine && !compared.engine.ok && up.status < 400
        ? await counterfactualOf(mirrorTarget, {
            url: `${base.origin}${basePath}${request.pathname}${sent.call.search}`,
            method: request.method,
            headers: Object.fromEntries(sent.headers),
            ...(sent.body.length ? { body: toBase64(sent.body) } : {}),
          })
        : undefined
    const saved =
      outcome === 'differs' && record && prefix
        ? {
            noContract: `only ${prefix} was compared, and a contract holds whole answers`,
          }
        : outcome === 'differs' && record
          ? await saveContract(exchange, `shadow › ${label} ${endpoint} [${format}]`, endpoint, [
              ...dependencies(exchange, touched),
              withUpstreamAnswer(record, up, twins),
            ])
          : {}
    report.add({
      exchange,
      label,
      endpoint,
      format,
      outcome,
      differences: differences.map((d) => ({
        what: d.what,
        upstream: twins.redact(d.upstream),
        engine: twins.redact(d.engine),
      })),
      ...(because ? { because: twins.redact(because) } : {}),
      ...(prefix ? { compared: prefix } : {}),
      askedAgain,
      ...(counterfactual ? { counterfactual: twins.redact(counterfactual) } : {}),
      request: shownRequest(request),
      upstream: shownAnswer(up),
      engine: shownAnswer(down),
      ...saved,
    })
    const heading = {
      differs: 'DIFFERS',
      'unknown-state': 'upstream state unknown to the engine',
      noise: 'noise',
      follows: `follows from #${follows}`,
    }[outcome]
    say(
      `shadow: ${label} ${endpoint} [${format}] ${heading}: ${differences.map(differenceText).join('; ')}${saved.contract ? ` (contract: ${saved.contract})` : ''}`,
    )
  }

  async function followControl(
    request: UpstreamRequest,
    answer: KeptAnswer,
    path: string,
    sentAt: number,
    answeredAt: number,
  ) {
    report.notCompared(NOT_COMPARED.control)
    if (answer.status < 200 || answer.status > 299) return
    const parse = (bytes: Uint8Array) => {
      try {
        return bytes.length ? (JSON.parse(new TextDecoder().decode(bytes)) as unknown) : undefined
      } catch {
        return undefined
      }
    }
    mirror.at(sentAt, answeredAt)
    const unfollowed = await mirror.follow(
      request.method,
      path,
      parse(request.body),
      parse(seenOf(answer).body),
    )
    if (unfollowed) say(`shadow: ${unfollowed}`)
  }

  /** Passes the request on; what follows its answer once the answer has ended. */
  async function pass(request: UpstreamRequest, label?: string): Promise<UpstreamStream> {
    const exchange = ++count
    const shown = label ?? `#${exchange}`
    const route = mirror.engine.route(`${basePath}${request.pathname}`)
    budget.sending()
    const sentAt = Date.now()
    let answer: UpstreamAnswer | UpstreamStream
    try {
      answer = await upstream.send(request)
    } catch (error) {
      enqueue(() => {
        report.notCompared(NOT_COMPARED.noAnswer)
        say(
          `shadow: ${shown} ${request.pathname}: no answer from the upstream (${(error as Error).message}); the client's connection is closed too, not compared`,
        )
      })
      throw error
    }
    const answeredAt = Date.now()
    const { status, statusMessage, headers } = answer
    budget.answered(status, headerRecord(headers))
    const head = { status, ...(statusMessage === undefined ? {} : { statusMessage }), headers }
    const [first] = route.kind === 'call' ? route.path.split('/') : []
    const ended = (kept: KeptAnswer) => {
      if (route.kind === 'control')
        enqueue(() => followControl(request, kept, route.path, sentAt, answeredAt))
      else if (route.kind === 'outside') enqueue(() => report.notCompared(NOT_COMPARED.outside))
      else if (first === '_accounts' || first === 'a')
        enqueue(() => report.notCompared(NOT_COMPARED.hosted))
      else enqueue(() => compare(exchange, shown, request, kept, route, sentAt, answeredAt))
    }
    const unended = () =>
      enqueue(() => {
        report.notCompared(NOT_COMPARED.unended)
        say(
          `shadow: ${shown} ${request.pathname}: the answer did not end (the client went away, or the upstream broke off), not compared`,
        )
      })
    const kept = new Prefix(COMPARED_BODY_BYTES)
    let settled = false
    /** Once, whichever comes first: the body's end, a break in it, or the client's leaving. */
    const settle = (whole: boolean) => {
      if (settled) return
      settled = true
      if (whole) ended({ ...head, body: kept.bytes(), whole: kept.whole, bytes: kept.size })
      else unended()
    }
    async function* body(): AsyncGenerator<Uint8Array> {
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
      body: body(),
      cancel() {
        settle(false)
        if ('cancel' in answer) answer.cancel()
      },
    }
  }

  return {
    report,
    twins,
    mirror,
    pass,
    async exchange(request, label) {
      const { body, cancel: _cancel, ...head } = await pass(request, label)
      const whole = new Prefix(Infinity)
      for await (const piece of body) whole.add(piece)
      return { ...head, body: whole.bytes() }
    },
    settled: () => queue,
    async stop(withinMs) {
      let timer: ReturnType<typeof setTimeout> | undefined
      await Promise.race([
        queue,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, withinMs)))),
      ])
      clearTimeout(timer)
      if (pending > 0) report.notCompared(NOT_COMPARED.stopped, pending)
      report.freeze()
      stopped = true
    },
    async writeReport() {
      if (reportDir === undefined) return []
      await mkdir(reportDir, { recursive: true })
      const json = join(reportDir, 'report.json')
      const text = join(reportDir, 'report.txt')
      await writeFile(json, `${twins.redact(JSON.stringify(report.toJSON(), null, 2))}\n`)
      await writeFile(text, twins.redact(report.text()))
      return [json, text]
    },
    async close() {
      // Once stopped, a comparison still running is let go: its store closes under it.
      if (!stopped) await queue
      stopped = true
      upstream.close()
      await mirror.close()
    },
  }
}

/** An answer as the shadow keeps it to compare: its body's first bytes, and its whole size. */
interface KeptAnswer extends UpstreamAnswer {
  /** Whether `body` is the whole body. */
  whole: boolean
  /** The whole body's size in bytes, as it came. */
  bytes: number
}

/** A kept answer as compared: its content encoding undone, and said to be cut when it was. */
function seenOf(answer: KeptAnswer): Seen {
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
