import { ServiceError } from '../errors'
import type { Call } from '../wire/call'
import { bodyFormat } from '../wire/formats'

/** One request as strict mode saw it: what the client sent and what it did wrong. */
export interface StrictEntry {
  method: string
  url: string
  /** Unix milliseconds on the engine clock. */
  at: number
  deviations: string[]
}

const MARKERS = new Set(['>>', '$$', '%%', '()', '{}', '@@'])
const MARKER_LIKE = /^[^\w\s]{2}$/

/** Unknown markers named one by one; the rest are counted. */
const MARKERS_NAMED = 10
/** What of a URL or a header value strict mode repeats: its first this many characters. */
const QUOTED_CHARACTERS = 2048

const cut = (text: string, most = QUOTED_CHARACTERS) =>
  text.length <= most ? text : `${text.slice(0, most)}… (${text.length} characters)`

function acceptable(accept: string, serviceName: string): boolean {
  return accept.split(',').some((part) => {
    const type = part.split(';')[0]!.trim().toLowerCase()
    return (
      type === '*/*' ||
      type === 'text/*' ||
      type === 'application/*' ||
      bodyFormat(type, serviceName) !== undefined
    )
  })
}

/** Arrays that start like a tuple but with a marker the language does not have, anywhere. */
function unknownMarkers(value: unknown, found: Set<string>, depth = 0): void {
  if (!Array.isArray(value) || depth > 256) return
  const [first] = value
  if (typeof first === 'string' && MARKER_LIKE.test(first) && !MARKERS.has(first)) found.add(first)
  for (const item of value) unknownMarkers(item, found, depth + 1)
}

function parses(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/**
 * What a lenient server tolerates but the interface does not promise: a body without a
 * content type, a text body that is tuples or JSON sent as text, an `accept` no format
 * answers, tuples with markers the language does not have. Each says what to change.
 */
export function strictDeviations(
  request: Pick<Call, 'header'>,
  body: Uint8Array,
  serviceName: string,
): string[] {
  const deviations: string[] = []
  const vnd = `application/vnd.${serviceName}+json`
  const contentType = request.header('content-type')
  const text = body.length > 0 ? new TextDecoder().decode(body) : ''
  if (body.length > 0 && (contentType === null || contentType.trim() === '')) {
    deviations.push('the body has no content-type: say text/plain, application/json or ' + vnd)
  }
  const format = bodyFormat(contentType, serviceName)
  if (format === 'text' && /^\s*[[{]/.test(text) && parses(text) !== undefined) {
    deviations.push(
      `the body is JSON sent as text: send it as application/json, or tuples as ${vnd}`,
    )
  }
  const accept = request.header('accept')
  if (accept && !acceptable(accept, serviceName)) {
    deviations.push(
      `accept \`${cut(accept, 200)}' names no format the service answers in: ask for text/plain, application/json, ${vnd} or application/vnd.${serviceName}+msgpack`,
    )
  }
  if (format === 'tuples') {
    const found = new Set<string>()
    unknownMarkers(parses(text), found)
    for (const marker of [...found].slice(0, MARKERS_NAMED)) {
      deviations.push(
        `"${marker}" is not a marker of the tuple language (>> $$ %% () {} @@): wrap data that looks like a tuple in ["%%", …]`,
      )
    }
    if (found.size > MARKERS_NAMED) {
      deviations.push(
        `and ${found.size - MARKERS_NAMED} more markers the tuple language does not have`,
      )
    }
  }
  return deviations
}

/** A request strict mode refuses: 406 when only its `accept` is wrong, 400 otherwise. */
export class StrictError extends ServiceError {
  constructor(deviations: string[]) {
    const onlyAccept = deviations.every((d) => d.startsWith('accept '))
    super(onlyAccept ? 406 : 400, 'strict', `strict mode: ${deviations.join('; ')}`)
  }
}

/** Requests strict mode's report keeps: the last this many. */
export const STRICT_REPORT_SIZE = 1000

/** An entry as the report keeps it: its URL cut to a bounded length, so the report is bounded. */
export const reportEntry = (entry: StrictEntry): StrictEntry => ({ ...entry, url: cut(entry.url) })

/** The per-run report: every request strict mode saw, newest last, the last 1,000. */
export function createStrictReport() {
  let entries: StrictEntry[] = []
  /** Every entry recorded since the report was last emptied: where a timeline's mark stands. */
  let total = 0
  return {
    record(entry: StrictEntry): void {
      entries.push(reportEntry(entry))
      total++
      if (entries.length > STRICT_REPORT_SIZE) entries = entries.slice(-STRICT_REPORT_SIZE)
    },
    list: (): StrictEntry[] => entries.map((entry) => ({ ...entry })),
    clear(): void {
      entries = []
      total = 0
    },
    replace(given: readonly StrictEntry[]): void {
      entries = given.map((entry) => ({ ...entry }))
      total = entries.length
    },
    get total(): number {
      return total
    },
    /** Back to when `count` entries had been recorded: the later ones are taken out. */
    truncate(count: number): void {
      if (count >= total) return
      entries = entries.slice(0, Math.max(0, entries.length - (total - count)))
      total = count
    },
  }
}
