// The fault table (decision 066): what a client meets for each kind of fault on each target,
// written once. The docs' table is checked against it cell by cell, and each target's test
// meets every kind with the same probe and holds the observation to its cell.
import type { FaultKind, FaultOptions } from '../engine'

/** Where a client meets the service. */
export const FAULT_TARGETS = ['node', 'http', 'page', 'page-serve', 'playground'] as const
export type FaultTarget = (typeof FAULT_TARGETS)[number]

/** The targets as the docs' table heads them. */
export const TARGET_HEADS: Record<FaultTarget, string> = {
  node: 'Node (msw)',
  http: 'HTTP (`serve`)',
  page: 'a page (Playwright)',
  'page-serve': 'a page (Playwright, `serve`)',
  playground: 'the playground',
}

export const FAULT_KINDS: readonly FaultKind[] = [
  'status',
  'delay',
  'network',
  'reset',
  'truncate',
  'hang',
  'respond',
]

/** How long `delay` and `hang` wait in the probes: long enough to tell, short enough to run. */
export const PROBE_WAIT_MS = 300

/** The rule each row sets, once, for `core.echo`. */
export const FAULT_RULES: Record<FaultKind, FaultOptions> = {
  status: { status: 503, endpoint: 'core.echo', once: true },
  delay: { kind: 'delay', delayMs: PROBE_WAIT_MS, endpoint: 'core.echo', once: true },
  network: { kind: 'network', endpoint: 'core.echo', once: true },
  reset: { kind: 'reset', endpoint: 'core.echo', once: true },
  truncate: { kind: 'truncate', endpoint: 'core.echo', once: true },
  hang: { kind: 'hang', delayMs: PROBE_WAIT_MS, endpoint: 'core.echo', once: true },
  respond: {
    kind: 'respond',
    answer: { status: 202, body: { given: true } },
    endpoint: 'core.echo',
    once: true,
  },
}

/** What a client meets, in a few words a test compares. */
export type Met = 'error answer' | 'answer' | 'half' | 'broken body' | 'no answer' | 'given answer'

/** What each kind looks like, wherever it is met. */
const EVERYWHERE: Record<FaultKind, Met> = {
  status: 'error answer',
  delay: 'answer',
  network: 'no answer',
  reset: 'broken body',
  truncate: 'half',
  hang: 'no answer',
  respond: 'given answer',
}

/**
 * Every cell: the same everywhere, but for a reset in a page under Playwright, whose routes
 * fulfil a request only whole: the page's `fetch` rejects, as for a connection reset before
 * the answer's head.
 */
export const FAULT_TABLE: Record<FaultTarget, Record<FaultKind, Met>> = {
  node: EVERYWHERE,
  http: EVERYWHERE,
  page: { ...EVERYWHERE, reset: 'no answer' },
  'page-serve': { ...EVERYWHERE, reset: 'no answer' },
  playground: EVERYWHERE,
}

/** The kinds that wait `delayMs` (real time) before the client meets them. */
export const LATE: ReadonlySet<FaultKind> = new Set(['delay', 'hang'])

/**
 * A cell of the docs' table. Every answer carries `x-fault` (the kind, or the status of a
 * `status` fault); "late" is after the rule's `delayMs`; "rejects" is with a `TypeError`.
 */
export function cellText(kind: FaultKind, met: Met): string {
  const late = LATE.has(kind) ? ', late' : ''
  const said: Record<Met, string> = {
    'error answer': '503, its error message',
    answer: `the real answer${late}`,
    half: 'the real status, half the body',
    'broken body': 'the real status, then reading the body rejects',
    'no answer': `\`fetch\` rejects${late}`,
    'given answer': 'the answer given, in place of the real one',
  }
  return said[met]
}

/** What the journal keeps of each kind: the answer's status, and `fault`. */
export const JOURNALED: Record<FaultKind, { status: number; fault: string }> = {
  status: { status: 503, fault: '503' },
  delay: { status: 200, fault: 'delay' },
  network: { status: 0, fault: 'network' },
  reset: { status: 200, fault: 'reset' },
  truncate: { status: 200, fault: 'truncate' },
  hang: { status: 0, fault: 'hang' },
  respond: { status: 202, fault: 'respond' },
}

/** The body the probe sends to `core.echo`, which answers it back. */
export const PROBE_BODY = 'echo'.repeat(16)

export interface ProbeInput {
  /** `<baseUrl>/core/echo`. */
  url: string
  token: string
  body: string
}

/** What the probe's client met. */
export interface Observation {
  /** The answer's status; `null` when `fetch` rejected. */
  status: number | null
  fault: string | null
  /** The body read, when it could be. */
  text: string | null
  /** The error `fetch` or the body's reading rejected with: its name. */
  error: string | null
  /** Real milliseconds until the client met it. */
  ms: number
}

/**
 * A client's call to `core.echo`, as any app makes it, and what it met. Self-contained, so that
 * a page can run it (`page.evaluate(probe, input)`).
 */
export async function probe({ url, token, body }: ProbeInput): Promise<Observation> {
  const started = performance.now()
  const ms = () => Math.round(performance.now() - started)
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/plain' },
      body,
      signal: AbortSignal.timeout(20_000),
    })
  } catch (error) {
    return { status: null, fault: null, text: null, error: (error as Error).name, ms: ms() }
  }
  const head = { status: response.status, fault: response.headers.get('x-fault') }
  try {
    return { ...head, text: await response.text(), error: null, ms: ms() }
  } catch (error) {
    return { ...head, text: null, error: (error as Error).name, ms: ms() }
  }
}

/** The few words for what the client met, or what it was when it fits no cell. */
export function metOf(kind: FaultKind, { status, fault, text, error }: Observation): string {
  if (status === null) return error === 'TypeError' ? 'no answer' : `fetch rejected: ${error}`
  const marked = fault === (kind === 'status' ? '503' : kind)
  if (!marked) return `${status} without x-fault: ${kind}`
  if (text === null) return error === 'TypeError' && status === 200 ? 'broken body' : `${error}`
  if (status === 503 && /service unavailable/.test(text)) return 'error answer'
  if (status === 202 && text === '{"given":true}') return 'given answer'
  if (status === 200 && text === PROBE_BODY) return 'answer'
  if (status === 200 && text === PROBE_BODY.slice(0, PROBE_BODY.length / 2)) return 'half'
  return `${status} ${JSON.stringify(text)}`
}

/**
 * Holds one target's observations to its column: what the client met, that `delay` and `hang`
 * took their `delayMs`, and what the journal kept. Returns the cells that differ, said.
 */
export function judge(
  target: FaultTarget,
  observed: Record<FaultKind, { observation: Observation; journaled: unknown }>,
): string[] {
  const wrong: string[] = []
  for (const kind of FAULT_KINDS) {
    const { observation, journaled } = observed[kind]
    const met = metOf(kind, observation)
    if (met !== FAULT_TABLE[target][kind]) {
      wrong.push(`${kind}: met ${met}, the table says ${FAULT_TABLE[target][kind]}`)
    }
    if (LATE.has(kind) && observation.ms < PROBE_WAIT_MS) {
      wrong.push(`${kind}: met after ${observation.ms} ms, before its delayMs ${PROBE_WAIT_MS}`)
    }
    const want = JOURNALED[kind]
    if (JSON.stringify(journaled) !== JSON.stringify(want)) {
      wrong.push(`${kind}: journaled ${JSON.stringify(journaled)}, not ${JSON.stringify(want)}`)
    }
  }
  return wrong
}

/** The table as markdown: a row per kind, a column per target. */
export function faultTableMarkdown(): string {
  const head = ['kind', ...FAULT_TARGETS.map((target) => TARGET_HEADS[target])]
  const rows = FAULT_KINDS.map((kind) => [
    `\`${kind}\``,
    ...FAULT_TARGETS.map((target) => cellText(kind, FAULT_TABLE[target][kind])),
  ])
  return [head, head.map(() => '---'), ...rows].map((row) => `| ${row.join(' | ')} |`).join('\n')
}

/** The table's cells as a page of markdown holds them, between `<!-- fault-table -->` marks. */
export function cellsIn(markdown: string): string[][] {
  const [, table = ''] =
    /<!-- fault-table -->\s*\n([\s\S]*?)\n\s*<!-- \/fault-table -->/.exec(markdown) ?? []
  return table
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|[\s|:-]+\|$/.test(line))
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    )
}
