import { loggedBytes, type ExchangeRecord, type LoggedBody } from '../operator/exchange-log'
import type { Call } from '../wire/call'
import { TooLargeError } from '../errors'

/**
 * One thing about a replayed exchange's answer that is not what the journal holds, as `verify`
 * says one: what (`status`, `header x-cursor`, `body`, `trace at calls[0].explanation`), and
 * both sides in brief.
 */
export interface Difference {
  what: string
  expected: string
  actual: string
}

/** Headers a replay does not compare: they say when, not what. */
const IGNORED_HEADERS = new Set(['date'])

const brief = (text: string, at = 0) => {
  const start = Math.max(0, at - 20)
  const cut = text.slice(start, start + 80)
  return `${start > 0 ? '…' : ''}${cut}${start + 80 < text.length ? '…' : ''}`
}

const show = (value: unknown) => (value === undefined ? '(none)' : JSON.stringify(value))

/**
 * What differs between an exchange as the journal kept it and as it was answered again: its
 * status, every header but `date`, its body's bytes (as far as the journal kept them) and its
 * decision trace. Empty when they are the same (decision 086).
 */
export function compareExchanges(expected: ExchangeRecord, actual: ExchangeRecord): Difference[] {
  const differences: Difference[] = []
  const want = expected.response
  const got = actual.response
  if (want.status !== got.status) {
    differences.push({ what: 'status', expected: String(want.status), actual: String(got.status) })
  }
  const headers = (list: Array<[string, string]>) =>
    new Map(list.filter(([name]) => !IGNORED_HEADERS.has(name)))
  const wanted = headers(want.headers)
  const given = headers(got.headers)
  for (const name of [...new Set([...wanted.keys(), ...given.keys()])].sort()) {
    if (wanted.get(name) !== given.get(name)) {
      differences.push({
        what: `header ${name}`,
        expected: show(wanted.get(name)),
        actual: show(given.get(name)),
      })
    }
  }
  const body = compareBodies(want.body, got.body)
  if (body) differences.push(body)
  const trace = firstDifference(expected.trace, actual.trace, 'trace')
  if (trace) differences.push(trace)
  return differences
}

function compareBodies(want: LoggedBody | null, got: LoggedBody | null): Difference | undefined {
  const text = (body: LoggedBody | null) => (body ? `${body.encoding}:${body.data}` : '')
  if (text(want) === text(got) && (want?.bytes ?? 0) === (got?.bytes ?? 0)) return undefined
  const a = want?.data ?? ''
  const b = got?.data ?? ''
  let at = 0
  while (at < a.length && at < b.length && a[at] === b[at]) at++
  return {
    what: `body (${want?.bytes ?? 0} bytes${want?.truncated ? ', cut' : ''} against ${got?.bytes ?? 0})`,
    expected: brief(a, at),
    actual: brief(b, at),
  }
}

/** The first place two JSON values differ, as a path below `path`. */
function firstDifference(a: unknown, b: unknown, path: string): Difference | undefined {
  if (a === b) return undefined
  const objects = typeof a === 'object' && a !== null && typeof b === 'object' && b !== null
  if (objects && Array.isArray(a) === Array.isArray(b)) {
    if (Array.isArray(a) && Array.isArray(b)) {
      for (let i = 0; i < Math.max(a.length, b.length); i++) {
        const found = firstDifference(a[i], b[i], `${path}[${i}]`)
        if (found) return found
      }
      return undefined
    }
    const left = a as Record<string, unknown>
    const right = b as Record<string, unknown>
    for (const key of [...new Set([...Object.keys(left), ...Object.keys(right)])].sort()) {
      const found = firstDifference(left[key], right[key], `${path}.${key}`)
      if (found) return found
    }
    return undefined
  }
  return {
    what: path === 'trace' ? 'trace' : `trace at ${path.slice('trace.'.length)}`,
    expected: brief(show(a)),
    actual: brief(show(b)),
  }
}

/** Why a journal's exchange cannot be sent again, or `undefined` when it can. */
export function unsendable(record: ExchangeRecord): string | undefined {
  if (record.request.body?.truncated) {
    return `its request body was kept cut at its first ${record.request.body.data.length} characters (of ${record.request.body.bytes} bytes)`
  }
  return undefined
}

/**
 * The body to send again for a journal's request: the bytes it kept; for a request refused as
 * too large (413), whose bytes the engine never read, one byte past the account's limit.
 */
export function sentBody(record: ExchangeRecord, maxBodyBytes: number): Uint8Array {
  if (!record.request.body && record.response.status === 413) {
    return new Uint8Array(maxBodyBytes + 1).fill(0x78)
  }
  return loggedBytes(record.request.body)
}

/** The journal's request as a call to send again (see `sentBody`). */
export function callOfRecord(record: ExchangeRecord, maxBodyBytes: number): Call {
  const url = new URL(record.request.url)
  const headers = new Map(
    record.request.headers.map(([name, value]) => [name.toLowerCase(), value]),
  )
  const body = sentBody(record, maxBodyBytes)
  return {
    method: record.request.method,
    origin: url.origin,
    pathname: url.pathname,
    search: url.search,
    header: (name) => headers.get(name.toLowerCase()) ?? null,
    headers: () => headers.entries(),
    async body(limit) {
      if (body.length > limit) throw new TooLargeError(limit)
      return body
    },
  }
}
