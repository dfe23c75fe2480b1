/** One endpoint call as the Call panel builds it. */
export interface CallRequest {
  /** A dotted endpoint name: `type.string.reverse` is called at `<baseUrl>/type/string/reverse`. */
  endpoint: string
  /** Sent as `authorization: Bearer <token>` when not empty. */
  token: string
  contentType: string
  /** Sent as the `accept` header when not empty. */
  accept: string
  /** Arguments as a query string, with or without the leading `?`. */
  query: string
  body: string
}

export interface CallResult {
  status: number
  statusText: string
  /** The response headers a client of the service looks at, when present. */
  headers: Record<string, string>
  body: string
}

export const SHOWN_HEADERS = ['content-type', 'x-cursor', 'x-rate-limit'] as const

export function callUrl(
  baseUrl: string,
  { endpoint, query }: Pick<CallRequest, 'endpoint' | 'query'>,
): string {
  const search = query.trim().replace(/^\?/, '')
  return `${baseUrl}/${endpoint.trim().replaceAll('.', '/')}${search ? `?${search}` : ''}`
}

/** POSTs one call over the wire, exactly as a real client would. */
export async function sendCall(baseUrl: string, call: CallRequest): Promise<CallResult> {
  const headers: Record<string, string> = { 'content-type': call.contentType }
  if (call.accept) headers.accept = call.accept
  if (call.token.trim()) headers.authorization = `Bearer ${call.token.trim()}`
  const response = await fetch(callUrl(baseUrl, call), {
    method: 'POST',
    headers,
    body: call.body === '' ? undefined : call.body,
  })
  const shown: Record<string, string> = {}
  for (const name of SHOWN_HEADERS) {
    const value = response.headers.get(name)
    if (value !== null) shown[name] = value
  }
  return {
    status: response.status,
    statusText: response.statusText,
    headers: shown,
    body: await response.text(),
  }
}
