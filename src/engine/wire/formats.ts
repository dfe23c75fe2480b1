import { UnsupportedMediaError } from '../errors'
import { assertJsonDepth } from '../lang/depth'
import { parseTupleBody } from '../lang/parser'
import { literal, textLiteral, type CallRequest } from '../lang/tree'
import { jsonText } from '../lang/json-text'
import type { Value } from '../lang/value'
import { decodeText, parseJson } from './body'
import { assertExactJson } from './exact'
import { decodeMsgpack, encodeMsgpack } from './msgpack'

/** What a response carries: a call's result, or an error's message. */
export type Answer = { result: Value } | { error: string }

/** One body format: the media type it goes by, how it reads a call and writes an answer. */
export interface BodyFormat {
  /** The content type it is sent with; requests are matched on its type alone, no parameters. */
  contentType(serviceName: string): string
  /** A request body as the call's input and arguments (the query string is added later). */
  read(body: Uint8Array): CallRequest
  /** A result or an error, as the response body. */
  write(answer: Answer): string | Uint8Array<ArrayBuffer>
}

const noInput = (): CallRequest => ({ args: new Map() })

/** The JSON text of a body, or `undefined` for an empty one (no input). */
function readJson(body: Uint8Array): unknown {
  const text = decodeText(body)
  if (text.trim() === '') return undefined
  const value = parseJson(text)
  assertJsonDepth(value)
  assertExactJson(text, value)
  return value
}

/** An answer in the tuple language: `[["<<", value]]` or `[["!!", {"message": text}]]`. */
const asTuples = (answer: Answer): Value =>
  'result' in answer ? [['<<', answer.result]] : [['!!', { message: answer.error }]]

/**
 * Every body format the service speaks, in the order the 415 message lists them. A format is
 * one entry here: its media type, how it reads a request body and how it writes an answer.
 */
export const formats = {
  /** `text/plain`: the body is the input, as text; a string answer is written raw. */
  text: {
    contentType: () => 'text/plain; charset=utf-8',
    read(body) {
      const text = decodeText(body)
      return text === '' ? noInput() : { input: textLiteral(text), args: new Map() }
    },
    write(answer) {
      if ('error' in answer) return answer.error
      return typeof answer.result === 'string' ? answer.result : jsonText(answer.result)
    },
  },
  /** `application/json`: the body is one JSON value, the input; an error is `{"error": …}`. */
  json: {
    contentType: () => 'application/json',
    read(body) {
      const value = readJson(body)
      return value === undefined ? noInput() : { input: literal(value as Value), args: new Map() }
    },
    write: (answer) =>
      jsonText('result' in answer ? answer.result : { error: { message: answer.error } }),
  },
  /** `application/vnd.<service>+json`: the tuple language in JSON. */
  tuples: {
    contentType: (serviceName) => `application/vnd.${serviceName}+json`,
    read(body) {
      const value = readJson(body)
      return value === undefined ? noInput() : parseTupleBody(value)
    },
    write: (answer) => jsonText(asTuples(answer)),
  },
  /** `application/vnd.<service>+msgpack`: the tuple language in MessagePack. */
  msgpack: {
    contentType: (serviceName) => `application/vnd.${serviceName}+msgpack`,
    read: (body) => (body.length === 0 ? noInput() : parseTupleBody(decodeMsgpack(body))),
    write: (answer) => encodeMsgpack(asTuples(answer)),
  },
} satisfies Record<string, BodyFormat>

/** The wire formats, by name: `text`, `json`, `tuples` and `msgpack`. */
export type Format = keyof typeof formats

const names = Object.keys(formats) as Format[]

export function mediaType(format: Format, serviceName: string): string {
  return typesOf(serviceName)[format]
}

/** Each service name's media type of each format, made once. */
const mediaTypes = new Map<string, Record<Format, string>>()

function typesOf(serviceName: string): Record<Format, string> {
  let types = mediaTypes.get(serviceName)
  if (!types) {
    types = Object.fromEntries(
      names.map((name) => [name, formats[name].contentType(serviceName)]),
    ) as Record<Format, string>
    mediaTypes.set(serviceName, types)
  }
  return types
}

/** The format of a content type, or `undefined` when it is not one the service reads. */
export function bodyFormat(contentType: string | null, serviceName: string): Format | undefined {
  if (contentType === null || contentType.trim() === '') return 'text'
  return formatOf(essence(contentType), serviceName)
}

/** Each service name's formats by media type, made once. */
const byType = new Map<string, Map<string, Format>>()

function formatOf(type: string, serviceName: string): Format | undefined {
  let types = byType.get(serviceName)
  if (!types) {
    types = new Map(names.map((name) => [essence(formats[name].contentType(serviceName)), name]))
    byType.set(serviceName, types)
  }
  return types.get(type)
}

const essence = (value: string) => value.split(';')[0]!.trim().toLowerCase()

/**
 * A content type's media type, lowercase and without parameters (`text/plain` of
 * `Text/Plain; charset=utf-8`); `undefined` when there is none.
 */
export function mediaTypeOf(contentType: string | null | undefined): string | undefined {
  if (contentType === null || contentType === undefined) return undefined
  return essence(contentType) || undefined
}

/**
 * The format a content type names (`undefined` for none the service speaks, or none given):
 * with `serviceName`, that service's media types only; without, any service's (a reader of
 * exchanges or answers that may come from another service).
 */
export function formatOfMediaType(
  contentType: string | null | undefined,
  serviceName?: string,
): Format | undefined {
  const type = mediaTypeOf(contentType)
  if (type === undefined) return undefined
  if (serviceName !== undefined) return formatOf(type, serviceName)
  if (type === 'text/plain') return 'text'
  if (type === 'application/json') return 'json'
  const vendor = /^application\/vnd\.[^+/]+\+(json|msgpack)$/.exec(type)?.[1]
  return vendor === 'json' ? 'tuples' : vendor === 'msgpack' ? 'msgpack' : undefined
}

/** The request body's format; a missing content type means text. 415 for anything else. */
export function requestFormat(contentType: string | null, serviceName: string): Format {
  const format = bodyFormat(contentType, serviceName)
  if (format) return format
  const supported = names.map((name) => essence(formats[name].contentType(serviceName)))
  throw new UnsupportedMediaError(
    `content type \`${essence(contentType!)}' is not supported; use ${supported.slice(0, -1).join(', ')} or ${supported.at(-1)}`,
  )
}

/**
 * The response format: the acceptable one with the highest quality, in the order given;
 * a wildcard, an absent header or nothing acceptable falls back to `fallback`.
 */
export function responseFormat(
  accept: string | null,
  fallback: Format,
  serviceName: string,
): Format {
  if (!accept) return fallback
  const ranges = accept
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase())
      const q = params.find((param) => param.startsWith('q='))
      return { type, q: q ? Number(q.slice(2)) : 1, index }
    })
    .filter((range) => range.type !== '' && range.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
  for (const { type } of ranges) {
    if (type === '*/*') return fallback
    const exact = formatOf(type, serviceName)
    if (exact) return exact
    if (type === 'text/*') return 'text'
    if (type === 'application/*') return fallback === 'text' ? 'json' : fallback
  }
  return fallback
}
