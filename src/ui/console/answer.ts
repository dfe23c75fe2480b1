import { isTupleType, readBody, saidIn, type ReadableBody, type WireResult } from '../shared/wire'

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

export function readAnswer(result: WireResult): Answer {
  const body = readBody(result.bytes, result.contentType)
  const answer: Answer = { result, body }
  const cursor = header(result, 'x-cursor')
  if (cursor) answer.cursor = cursor
  const failed = result.status >= 400
  if (result.bytes.length === 0) return answer
  const said = saidIn(body.value, result.contentType, failed)
  if (said.error !== undefined) answer.error = said.error
  else if ('value' in said) answer.value = shown(said.value)
  else if (!('value' in body)) answer[failed ? 'error' : 'value'] = body.raw || body.pretty
  else answer.value = isTupleType(result.contentType) ? body.pretty : shown(body.value)
  return answer
}
