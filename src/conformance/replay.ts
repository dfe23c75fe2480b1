// Replays a recording (`GET <baseUrl>/_account/recording`) on any target of ours, each request
// through the target's own way in: in process, through msw, or over HTTP. Browser-safe.
import { compareExchanges, sentBody, type Difference } from '../engine/history/compare'
import type { Mark } from '../engine/history/history'
import type { Recording } from '../engine/history/recording'
import type { ExchangeRecord } from '../engine/operator/exchange-log'
import { basePathOf, toBase64 } from '../client/wire'
import type { Target, WireRequest } from './run'

export type { Recording }

/** What a replay found: how many exchanges were sent again, how many answered the same. */
export interface ReplayResult {
  exchanges: number
  identical: number
  /** The first exchange that answered otherwise, with what differed, as `verify` says it. */
  difference?: { exchange: number; differences: Difference[] }
  /** Why it stopped before the recording's end, when it did. */
  stopped?: string
}

/** Request headers a client does not choose: the connection's, which fetch sets itself. */
const CONNECTION_HEADERS = new Set([
  'host',
  'connection',
  'content-length',
  'transfer-encoding',
  'keep-alive',
  'expect',
  'upgrade',
  'te',
  'trailer',
])

/** The recorded request, sent to `target` in place of the recording's base URL. */
function requestOf(record: ExchangeRecord, recording: Recording, target: Target): WireRequest {
  const url = record.request.url.startsWith(recording.baseUrl)
    ? record.request.url.slice(recording.baseUrl.length)
    : (() => {
        const { pathname, search } = new URL(record.request.url)
        const base = basePathOf(recording.baseUrl)
        return `${pathname.startsWith(base) ? pathname.slice(base.length) : pathname}${search}`
      })()
  const body = sentBody(record, recording.maxBodyBytes)
  return {
    url: `${target.baseUrl}${url}`,
    method: record.request.method,
    headers: Object.fromEntries(
      record.request.headers.filter(([name]) => !CONNECTION_HEADERS.has(name.toLowerCase())),
    ),
    ...(body.length > 0 || record.request.body ? { body: toBase64(body) } : {}),
  }
}

/** How many exchanges are sent before their answers are read back from the target's journal. */
const CHECKED_TOGETHER = 100

/**
 * The controls and the clock as an exchange leaves them when it changes nothing but counts
 * itself: what the next exchange meets unless something else changed them.
 */
const afterItself = (mark: Mark): Mark => ({
  ...mark,
  operator: { ...mark.operator, steps: mark.operator.steps + 1 },
})

const sameMark = (a: Mark, b: Mark) => JSON.stringify(a) === JSON.stringify(b)

/**
 * Sends a recording's exchanges to `target` (one of ours, with its control plane) on the
 * account it names, as they were first sent: the account imported as it stood before the
 * first, the controls and the clock put as each one met them (where the one before did not
 * leave them so), and each change made between exchanges imported as it left the account.
 * Compares each answer, as the target's journal keeps it, with the recording's: status,
 * headers but `date`, body bytes and decision trace. Stops at the first that differs.
 */
export async function replayRecording(recording: Recording, target: Target): Promise<ReplayResult> {
  const control = target.control
  if (!control) {
    throw new Error(`${target.name}: replaying needs the target's control plane (and its token)`)
  }
  const result: ReplayResult = { exchanges: 0, identical: 0 }
  await control('import', recording.start.account)
  const { seed } = (await control('seed')) as { seed: string | null }
  if (seed !== recording.seed) {
    throw new Error(
      `${target.name}: the account's seed is ${JSON.stringify(seed)} after importing the recording's start, not ${JSON.stringify(recording.seed)}: is it one of ours?`,
    )
  }
  const newest = (await control('exchanges')) as { exchanges: Array<{ id: number }> }
  let after = newest.exchanges[0]?.id ?? 0
  /** Sent, not yet compared: compared in order with what the journal made of them. */
  let sent: ExchangeRecord[] = []
  const check = (answered: readonly ExchangeRecord[]): boolean => {
    for (const [i, expected] of sent.entries()) {
      const actual = answered[i]
      const differences = actual
        ? compareExchanges(expected, actual)
        : [{ what: 'answer', expected: 'an exchange in the journal', actual: 'none' }]
      if (differences.length > 0) {
        result.difference = { exchange: expected.id, differences }
        return false
      }
      result.identical++
    }
    if (answered.length > 0) after = answered.at(-1)!.id
    sent = []
    return true
  }
  /**
   * The account as a change left it and the controls as the next exchange met them, put in one
   * request, which answers what the target made of the exchanges sent since the last.
   */
  const state = async (mark?: Mark, account?: unknown) => {
    const { exchanges } = (await control('replay/state', {
      ...(account ? { account } : {}),
      ...(mark ? { mark } : {}),
      ...(sent.length > 0 ? { after } : {}),
    })) as { exchanges: ExchangeRecord[] }
    return check(exchanges)
  }
  let expected: Mark | undefined
  /** A change to import with the next exchange's state. */
  let changed: unknown
  for (const step of recording.steps) {
    if ('account' in step) {
      changed = step.account
      expected = undefined
      continue
    }
    const needed = !expected || !sameMark(step.mark, expected)
    if (needed || sent.length >= CHECKED_TOGETHER) {
      const account = changed
      changed = undefined
      if (!(await state(needed ? step.mark : undefined, account))) return result
    }
    if (step.exchange.request.body?.truncated) {
      result.stopped = `exchange ${step.exchange.id}'s request body was kept cut: it cannot be sent again`
      return result
    }
    await target.send(requestOf(step.exchange, recording, target))
    result.exchanges++
    sent.push(step.exchange)
    expected = afterItself(step.mark)
  }
  if (!(await state(undefined, changed))) return result
  if (recording.stopped) result.stopped = recording.stopped
  return result
}

/** A replay's result as a line, and the first difference below it as `verify` says one. */
export function describeReplay(result: ReplayResult): string {
  const lines = [
    `${result.identical} of ${result.exchanges} exchanges replayed identically${result.stopped ? ` (stopped: ${result.stopped})` : ''}`,
  ]
  if (result.difference) {
    lines.push(`exchange ${result.difference.exchange} differs:`)
    for (const { what, expected, actual } of result.difference.differences) {
      lines.push(`  ${what}: expected ${expected}, got ${actual}`)
    }
  }
  return lines.join('\n')
}
