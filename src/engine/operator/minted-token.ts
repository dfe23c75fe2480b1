import { isAuthorizationToken, mintedAuthorization } from '../auth/minted'
import { formatOfMediaType } from '../wire/formats'
import { decodeMsgpack } from '../wire/msgpack'
import { loggedBytes, type ExchangeRecord } from './exchange-record'

/**
 * The authorization a logged exchange minted, in whichever format its answer came: plain text,
 * a JSON string, `[["<<", token]]` in tuples or MessagePack. Undefined for any other exchange,
 * and for an answer the log cut short or that holds no authorization.
 */
export function mintedToken(record: ExchangeRecord): string | undefined {
  const { response, trace } = record
  if (!mintedAuthorization(trace.endpoint, response.status)) return undefined
  const body = response.body
  if (!body || body.truncated) return undefined
  const type = response.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1]
  const bytes = loggedBytes(body)
  try {
    const format = formatOfMediaType(type)
    if (format === 'msgpack' || format === 'tuples') {
      const tuples =
        format === 'msgpack' ? decodeMsgpack(bytes) : JSON.parse(new TextDecoder().decode(bytes))
      const [marker, token] = (Array.isArray(tuples) && Array.isArray(tuples[0]) && tuples[0]) || []
      return marker === '<<' && isAuthorizationToken(token) ? token : undefined
    }
    const text = new TextDecoder().decode(bytes)
    const token: unknown = format === 'json' ? JSON.parse(text) : text
    return isAuthorizationToken(token) ? token : undefined
  } catch {
    return undefined
  }
}
