import type { ExchangeRecord, LoggedBody } from '../../engine'
import { refusalOf } from '../shared/refusal'
import { isTupleType } from '../shared/wire'
import { headerOf, tokenOf } from './records'

/**
 * What the log's list and its filters read of a record, worked out once per record (records
 * are never changed: the page's log only adds and removes them) and kept beside it: the
 * arguments in brief, the refusal code, the body format, the token's kind, and the text a
 * search looks through.
 */
export interface RecordFacts {
  /** `bucket=users key=alice/1 · input "hello"`, at most about 80 characters; empty for none. */
  readonly args: string
  /** The engine's reason for a refusal (`outside_limit`), as the trace gives it. */
  readonly code?: string
  readonly format: BodyFormatName
  /** `secret`, `authorization`, `none` (no token) or `unknown`. */
  readonly role: 'secret' | 'authorization' | 'none' | 'unknown'
  readonly token?: string
  /** The URL and both bodies, lower-cased: what "text in the request or the answer" looks in. */
  readonly text: string
}

/** A request body's format, as its `content-type` says it. */
export type BodyFormatName = 'text' | 'json' | 'tuples' | 'msgpack' | 'none' | 'other'

export const FORMAT_NAMES: Record<BodyFormatName, string> = {
  text: 'text/plain',
  json: 'application/json',
  tuples: 'tuples (vnd+json)',
  msgpack: 'MessagePack',
  none: 'no body',
  other: 'another type',
}

const known = new WeakMap<ExchangeRecord, RecordFacts>()

/** The facts of a record, worked out on first use. */
export function factsOf(record: ExchangeRecord): RecordFacts {
  let facts = known.get(record)
  if (!facts) known.set(record, (facts = readFacts(record)))
  return facts
}

/** How many characters of a value the summary shows. */
const SHOWN = 24
/** How many characters of the bodies a search looks through. */
const SEARCHED = 16 * 1024

/**
 * A record's facts: what the menus and most filters need is read at once; the arguments in
 * brief and the searchable text (which parse and join bodies) only when asked for, so that a
 * log of ten thousand exchanges opens without reading every body.
 */
class Facts implements RecordFacts {
  readonly format: BodyFormatName
  readonly role: RecordFacts['role']
  readonly code?: string
  readonly token?: string
  #args: string | undefined
  #text: string | undefined

  constructor(private readonly record: ExchangeRecord) {
    const type = headerOf(record.request.headers, 'content-type') ?? ''
    this.format = formatOf(type, record.request.body)
    const token = tokenOf(record)
    this.role = roleOf(record, token)
    const code = refusalOf(record.trace)?.code
    if (code) this.code = code
    if (token) this.token = token
  }

  get args(): string {
    return (this.#args ??= summarize(this.record, this.format))
  }

  get text(): string {
    const { request, response } = this.record
    return (this.#text ??= [
      request.url,
      decoded(request.url),
      textOf(request.body),
      textOf(response.body),
    ]
      .join('\n')
      .toLowerCase())
  }
}

function readFacts(record: ExchangeRecord): RecordFacts {
  return new Facts(record)
}

function formatOf(type: string, body: LoggedBody | null): BodyFormatName {
  const media = type.split(';')[0]!.trim().toLowerCase()
  if (!body && !media) return 'none'
  if (media === '' || media === 'text/plain') return 'text'
  if (media === 'application/json') return 'json'
  if (isTupleType(media)) return media.endsWith('+msgpack') ? 'msgpack' : 'tuples'
  return 'other'
}

function roleOf(record: ExchangeRecord, token: string | undefined): RecordFacts['role'] {
  const kind = record.trace.credential?.kind
  if (kind === 'secret' || kind === 'authorization') return kind
  if (kind === 'none' || !token) return 'none'
  return 'unknown'
}

/** A URL as a person reads it: `key=alice%2F1` as `key=alice/1`. */
function decoded(url: string): string {
  try {
    return decodeURIComponent(url.replaceAll('+', ' '))
  } catch {
    return ''
  }
}

/** A body's text as the log kept it (MessagePack is searched as nothing: it is bytes). */
function textOf(body: LoggedBody | null): string {
  if (!body || body.encoding !== 'text') return ''
  return body.data.length > SEARCHED ? body.data.slice(0, SEARCHED) : body.data
}

const brief = (value: unknown): string => {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? '')
  return text.length > SHOWN ? `${text.slice(0, SHOWN - 1)}…` : text
}

/** The arguments (query string and body) and the input, in brief. */
function summarize(record: ExchangeRecord, format: BodyFormatName): string {
  const parts: string[] = []
  let input: unknown = undefined
  try {
    for (const [name, value] of new URL(record.request.url).searchParams) {
      parts.push(`${name}=${brief(value).replace(/^"(.*)"$/, '$1')}`)
    }
  } catch {
    // A URL the engine could not read: its path is said by the endpoint column.
  }
  const body = record.request.body
  if (body && body.encoding === 'text') {
    if (format === 'text') input = body.data
    else if (format === 'json' || format === 'tuples') {
      try {
        const value: unknown = JSON.parse(body.data)
        if (format === 'json') input = value
        else if (Array.isArray(value)) {
          for (const tuple of value) {
            if (!Array.isArray(tuple)) continue
            if (tuple[0] === '>>') input = tuple[1]
            if (tuple[0] === '$$' && typeof tuple[1] === 'string') {
              parts.push(`${tuple[1]}=${brief(literal(tuple[2])).replace(/^"(.*)"$/, '$1')}`)
            }
          }
        }
      } catch {
        input = body.data
      }
    }
  }
  if (input !== undefined) parts.push(`input ${brief(literal(input))}`)
  const text = parts.join(' · ')
  return text.length > 80 ? `${text.slice(0, 79)}…` : text
}

/** A `%%` literal's content: what the client meant as data. */
const literal = (value: unknown): unknown =>
  Array.isArray(value) && value[0] === '%%' && value.length === 2 ? value[1] : value

/** The log's filters, as the URL keeps them; empty means any. */
export interface FactFilter {
  /** `secret`, `authorization`, `none`, `unknown`, or the first characters of a token. */
  token: string
  /** A refusal code, or `refused` for any. */
  code: string
  format: string
  /** Text in the request or the answer (URL and bodies), any case. */
  text: string
}

const ROLES = new Set(['secret', 'authorization', 'none', 'unknown'])

/** Whether a record passes the filters on its facts. */
export function matchesFacts(record: ExchangeRecord, filter: FactFilter): boolean {
  const facts = factsOf(record)
  const token = filter.token.trim()
  if (token) {
    if (ROLES.has(token) ? facts.role !== token : !facts.token?.startsWith(token)) return false
  }
  const code = filter.code.trim()
  if (code === 'refused' ? !facts.code : code && facts.code !== code) return false
  if (filter.format && facts.format !== filter.format) return false
  const text = filter.text.trim().toLowerCase()
  return text === '' || facts.text.includes(text)
}
