import type { SimulateCall } from '../types'
import { MAX_REPLAYED } from './limits'
import type { ReplayCall, TokenGroup } from './token-group'
import { header, isObject, text, type Loose } from './trace-fields'

/**
 * Keeps the request to replay, once per distinct call (its URL, content type and body as the
 * journal kept them): strings of the entry are compared, and a call made for simulate only
 * when one is new. A body cut short, or not as the journal writes one, cannot be replayed.
 */
export function remember(
  group: TokenGroup,
  endpoint: string,
  request: Loose,
  status: number,
  message: string | null,
  at: number | null,
  accepted: boolean,
): void {
  const url = text(request.url)
  const given = request.body
  let body: string | null = null
  let base64 = false
  if (isObject(given)) {
    const encoding = given.encoding
    if (typeof given.data === 'string' && given.truncated !== true) {
      if (encoding === 'text' || encoding === 'base64') {
        body = given.data
        base64 = encoding === 'base64'
      }
    }
  }
  if (url === null || (given !== null && given !== undefined && body === null)) {
    group.unreplayed++
    return
  }
  const type = header(request.headers, 'content-type')
  let same = group.replay.get(url)
  let known: ReplayCall | undefined
  for (const r of same ?? []) {
    if (r.type === type && r.body === body && r.base64 === base64) {
      known = r
      break
    }
  }
  if (known) {
    if (at !== null && (known.at === null || at > known.at)) known.at = at
  } else if (group.replayed < MAX_REPLAYED) {
    known = replayCall(endpoint, url, type, body, base64, at, status, message)
    if (!same) group.replay.set(url, (same = []))
    same.push(known)
    group.replayed++
  } else group.unreplayed++
  if (accepted && at !== null && (group.latest === undefined || at > (group.latest.at ?? 0))) {
    group.latest = known ?? replayCall(endpoint, url, type, body, base64, at, status, message)
  }
}

/** A call to replay, as simulate takes it, from what the journal kept. */
function replayCall(
  endpoint: string,
  url: string,
  type: string | null,
  body: string | null,
  base64: boolean,
  at: number | null,
  status: number,
  message: string | null,
): ReplayCall {
  // The query as the URL carries it (a journal's URLs are absolute; none has a fragment).
  const mark = url.indexOf('?')
  const query = mark === -1 ? '' : url.slice(mark + 1).split('#', 1)[0]!
  const call: SimulateCall = { endpoint, query, ...(type === null ? {} : { contentType: type }) }
  if (body !== null) call[base64 ? 'bodyBase64' : 'body'] = body
  return { call, at, status, message, type, body, base64 }
}
