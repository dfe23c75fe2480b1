import { isAuthorizationToken } from '../../client/exchange'
import { readBody, saidIn } from './wire'

/**
 * What an `auth.create` answer holds, in whichever format it came back: the token on success
 * (plain text, a JSON string, `[["<<", token]]` in tuples or MessagePack), the engine's
 * message on failure (`{"error":{"message"}}`, `[["!!", {"message"}]]`, or plain text).
 */
export function tokenOf(bytes: Uint8Array, contentType: string): string | undefined {
  const body = readBody(bytes, contentType)
  const said = saidIn(body.value, contentType, false)
  const token = 'value' in said ? said.value : 'value' in body ? body.value : body.raw
  return isAuthorizationToken(token) ? token : undefined
}

/** The engine's message in an error answer, never the raw escaped body. */
export function errorMessageOf(bytes: Uint8Array, contentType: string): string {
  const body = readBody(bytes, contentType)
  if (!('value' in body)) return body.raw.trim() || '(an empty answer)'
  return saidIn(body.value, contentType, true).error ?? body.pretty
}
