/**
 * Shadow mode's last stage: an exchange whose answers differ, recorded — what it may have left
 * different on the two sides, the counterfactual of a refusal, a contract that replays it (with
 * the exchanges it depends on), its row in the report, and a line said as it is found.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { readSent } from '../client/exchange'
import { toBase64 } from '../client/wire'
import { counterfactualOf } from '../conformance/counterfactual'
import { readableBody } from '../conformance/run'
import { schemaRef } from '../conformance/schema-ref'
import type { ExchangeRecord } from '../engine'
import type { Seen } from './answers'
import type { Verdict } from './compare-stage'
import { differenceContract, withUpstreamAnswer } from './difference-contract'
import { readCaseFile } from '../conformance/cases'
import { linkPage } from '../conformance/link/link-page'
import { makeStepLink, stepLinkUrl } from '../conformance/link/step-link'
import { keyItem, procItem, type Item, type Touched } from './known-state'
import { differenceText, type ShownAnswer, type ShownRequest } from './parity-report'
import { headersOf, type Mirrored, type ShadowExchange, type ShadowState } from './shadow-state'

const SHOWN_REQUEST_HEADERS = ['authorization', 'content-type', 'accept', 'content-encoding']
const SHOWN_ANSWER_HEADERS = ['content-type', 'x-cursor', 'retry-after', 'x-rate-limit', 'x-fault']

/** Records an exchange whose answers differ; one that agreed is counted. */
export async function recordStage(
  state: ShadowState,
  exchange: ShadowExchange,
  mirrored: Mirrored,
  verdict: Verdict,
): Promise<void> {
  const { twins, known, base, basePath } = state
  const { number, label, endpoint, format, call } = exchange
  const { record, touched, sent } = mirrored
  const { outcome, differences, because, prefix, follows, up, down, compared } = verdict
  if (outcome === 'agreed') return state.report.count(endpoint, format, 'agreed')
  if (verdict.writes && outcome !== 'noise')
    known.diverge(divergedBy(state, record, touched), outcome === 'follows' ? follows! : number)
  const counterfactual =
    outcome === 'differs' && compared.engine && !compared.engine.ok && up.status < 400
      ? await counterfactualOf(state.mirrorTarget, {
          url: `${base.origin}${basePath}${call.pathname}${sent.call.search}`,
          method: call.method,
          headers: Object.fromEntries(sent.headers),
          ...(sent.body.length ? { body: toBase64(sent.body) } : {}),
        })
      : undefined
  const saved =
    outcome === 'differs' && record && prefix
      ? { noContract: `only ${prefix} was compared, and a contract holds whole answers` }
      : outcome === 'differs' && record
        ? await saveContract(state, number, `shadow › ${label} ${endpoint} [${format}]`, endpoint, [
            ...dependencies(state, number, touched),
            withUpstreamAnswer(record, up, twins),
          ])
        : {}
  state.report.add({
    exchange: number,
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
    askedAgain: verdict.askedAgain,
    ...(counterfactual ? { counterfactual: twins.redact(counterfactual) } : {}),
    request: shownRequest(state, exchange),
    upstream: shownAnswer(state, up),
    engine: shownAnswer(state, down),
    ...saved,
  })
  const heading = {
    differs: 'DIFFERS',
    'unknown-state': 'upstream state unknown to the engine',
    noise: 'noise',
    follows: `follows from #${follows}`,
  }[outcome]
  state.say(
    `shadow: ${label} ${endpoint} [${format}] ${heading}: ${differences.map(differenceText).join('; ')}${saved.contract ? ` (contract: ${saved.contract})` : ''}`,
  )
}

function shownRequest({ twins }: ShadowState, { call, body }: ShadowExchange): ShownRequest {
  const headers = headersOf(call)
  const shown = Object.fromEntries(
    SHOWN_REQUEST_HEADERS.filter((name) => headers[name] !== undefined).map((name) => [
      name,
      twins.redact(headers[name]!),
    ]),
  )
  return {
    method: call.method,
    path: twins.redact(`${call.pathname}${call.search}`),
    headers: shown,
    body: twins.redact(readableBody(headers, body, (text) => twins.redact(text))),
  }
}

function shownAnswer({ twins }: ShadowState, seen: Seen): ShownAnswer {
  return {
    status: seen.status,
    headers: Object.fromEntries(
      SHOWN_ANSWER_HEADERS.filter((name) => seen.headers[name] !== undefined).map((name) => [
        name,
        twins.redact(seen.headers[name]!),
      ]),
    ),
    body: twins.redact(readableBody(seen.headers, seen.body, (text) => twins.redact(text))),
  }
}

/**
 * What an exchange that may write and differed may have left different on the two sides: the
 * key or procedure it names (whichever side refused it), or what the mirror wrote while
 * running a composition or a stored procedure; what the upstream wrote there is not known.
 */
function divergedBy(
  { serviceName }: ShadowState,
  record: ExchangeRecord | undefined,
  touched: Touched,
): Array<Item | '*'> {
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
function dependencies(
  { known, writers }: ShadowState,
  exchange: number,
  touched: Touched,
): ExchangeRecord[] {
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

/** Saves a difference as a contract in the report directory: its path, or why there is none. */
async function saveContract(
  { reportDir, stopped, serviceName, upstream, mirror, twins }: ShadowState,
  exchange: number,
  name: string,
  endpoint: string,
  records: ExchangeRecord[],
): Promise<{ contract?: string; link?: string; noContract?: string }> {
  if (reportDir === undefined || stopped) return {}
  try {
    const file = join(
      reportDir,
      'contracts',
      `${String(exchange).padStart(3, '0')}-${endpoint.replace(/[^A-Za-z0-9._-]/g, '_')}.json`,
    )
    const text = differenceContract(
      records,
      {
        name,
        serviceName,
        baseUrl: upstream.baseUrl,
        secrets: await mirror.secrets(),
        $schema: schemaRef('cases', resolve(file)),
      },
      twins,
    )
    await mkdir(join(reportDir, 'contracts'), { recursive: true })
    await writeFile(file, text)
    // The difference as a link too: its contract's last step, the one that differs.
    const made = await makeStepLink(readCaseFile(file, text))
    return { contract: file, link: stepLinkUrl(linkPage(), made.value) }
  } catch (error) {
    return { noContract: (error as Error).message }
  }
}
