import { readBody, type ReadableBody, type WireResult } from '../shared/wire'

/** An answer as a person reads it: the engine's message or the value, unwrapped from its format. */
export interface Answer {
  result: WireResult
  body: ReadableBody
  /** The engine's error message, when it answered one. */
  error?: string
  /** The value answered, as text: a string as it is, anything else as indented JSON. */
  value?: string
  /** The `x-cursor` header, when it leads to a next page. */
  cursor?: string
}

const header = (result: WireResult, name: string) =>
  result.headers.find(([key]) => key.toLowerCase() === name)?.[1]

const shown = (value: unknown) =>
  typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? String(value))

const messageIn = (value: unknown): string | undefined => {
  const message = (value as { message?: unknown } | null)?.message
  return typeof message === 'string' ? message : undefined
}

export function readAnswer(result: WireResult): Answer {
  const body = readBody(result.bytes, result.contentType)
  const answer: Answer = { result, body }
  const cursor = header(result, 'x-cursor')
  if (cursor) answer.cursor = cursor
  const failed = result.status >= 400
  if (result.bytes.length === 0) return answer
  if (/^application\/vnd\.[^+]+\+(json|msgpack)/i.test(result.contentType) && 'value' in body) {
    // The tuple formats answer `[["<<", value]]` or `[["!!", {"message": …}]]`.
    const tuples = Array.isArray(body.value) ? (body.value as unknown[]) : []
    for (const tuple of tuples) {
      if (!Array.isArray(tuple)) continue
      if (tuple[0] === '<<') answer.value = shown(tuple[1])
      if (tuple[0] === '!!') answer.error = messageIn(tuple[1]) ?? shown(tuple[1])
    }
    if (answer.value === undefined && answer.error === undefined) answer.value = body.pretty
    return answer
  }
  if ('value' in body) {
    const message = failed
      ? messageIn((body.value as { error?: unknown } | null)?.error)
      : undefined
    if (message !== undefined) answer.error = message
    else answer.value = shown(body.value)
    return answer
  }
  if (failed) answer.error = body.raw || body.pretty
  else answer.value = body.raw || body.pretty
  return answer
}
