import { readBody } from '../shared/wire'

/**
 * What an `auth.create` answer holds, in whichever format it came back: the token on success
 * (plain text, a JSON string, `[["<<", token]]` in tuples or MessagePack), the engine's
 * message on failure (`{"error":{"message"}}`, `[["!!", {"message"}]]`, or plain text).
 */
export function tokenOf(bytes: Uint8Array, contentType: string): string | undefined {
  const body = readBody(bytes, contentType)
  const value = 'value' in body ? body.value : body.raw
  const token = tupleValue(value, '<<') ?? value
  return typeof token === 'string' && isAuthorizationToken(token) ? token : undefined
}

/** The engine's message in an error answer, never the raw escaped body. */
export function errorMessageOf(bytes: Uint8Array, contentType: string): string {
  const body = readBody(bytes, contentType)
  if (!('value' in body)) return body.raw.trim() || '(an empty answer)'
  const value = body.value
  const error = tupleValue(value, '!!') ?? (isRecord(value) ? value.error : undefined)
  if (isRecord(error) && typeof error.message === 'string') return error.message
  return body.pretty
}

/** An authorization is `<payload>.<signature>`, both base64url. */
export const isAuthorizationToken = (token: string): boolean =>
  /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token)

function tupleValue(value: unknown, tag: string): unknown {
  if (!Array.isArray(value)) return undefined
  const tuple: unknown = value.find((item) => Array.isArray(item) && item[0] === tag)
  return Array.isArray(tuple) ? tuple[1] : undefined
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** Bytes from base64 (the exchange log keeps binary bodies so). */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text)
  return Uint8Array.from(binary, (char) => char.charCodeAt(0))
}
