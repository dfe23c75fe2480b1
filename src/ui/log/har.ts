import type { ExchangeRecord, LoggedBody } from '../../engine'
import { reasonPhrase } from '../shared/wire'
import { headerOf } from './records'

/**
 * The exchange log as an HTTP Archive (HAR 1.2), the file browsers' network panels export and
 * import. Each entry is one record with its headers and bodies as they travelled (tokens
 * included); what HAR has no field for (the decision trace, the virtual time) rides in
 * `_`-prefixed fields, which HAR allows.
 */

interface HarNameValue {
  name: string
  value: string
}

export interface HarPostData {
  mimeType: string
  text: string
  /** Not in HAR 1.2 for requests: MessagePack bodies are base64, as in `content.encoding`. */
  _encoding?: 'base64'
  comment?: string
}

export interface HarContent {
  size: number
  mimeType: string
  text?: string
  encoding?: 'base64'
  comment?: string
}

export interface HarEntry {
  startedDateTime: string
  time: number
  request: {
    method: string
    url: string
    httpVersion: string
    cookies: []
    headers: HarNameValue[]
    queryString: HarNameValue[]
    postData?: HarPostData
    headersSize: -1
    bodySize: number
  }
  response: {
    status: number
    statusText: string
    httpVersion: string
    cookies: []
    headers: HarNameValue[]
    content: HarContent
    redirectURL: ''
    headersSize: -1
    bodySize: number
  }
  cache: Record<string, never>
  timings: { blocked: -1; dns: -1; connect: -1; ssl: -1; send: 0; wait: number; receive: 0 }
  comment?: string
  _exchangeId: number
  /** The virtual time it was answered at, ISO 8601. */
  _virtualTime: string
  _trace: ExchangeRecord['trace']
}

export interface Har {
  log: {
    version: '1.2'
    creator: { name: string; version: string }
    entries: HarEntry[]
    comment: string
  }
}

const pairs = (headers: Array<[string, string]>): HarNameValue[] =>
  headers.map(([name, value]) => ({ name, value }))

const cut = (body: LoggedBody) =>
  body.truncated ? { comment: `cut at ${bodyKept(body)} of ${body.bytes} bytes` } : {}

/** Bytes of a logged body that were kept. */
function bodyKept(body: LoggedBody): number {
  if (body.encoding === 'text') return new TextEncoder().encode(body.data).length
  const padding = body.data.endsWith('==') ? 2 : body.data.endsWith('=') ? 1 : 0
  return (body.data.length / 4) * 3 - padding
}

function queryString(url: string): HarNameValue[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }))
  } catch {
    return []
  }
}

function entry(record: ExchangeRecord): HarEntry {
  const { request, response, trace } = record
  const requestBody = request.body
  const responseBody = response.body
  const outcome = trace.outcome
  return {
    startedDateTime: new Date(record.startedAt).toISOString(),
    time: record.durationMs,
    request: {
      method: request.method,
      url: request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(request.headers),
      queryString: queryString(request.url),
      ...(requestBody
        ? {
            postData: {
              mimeType: headerOf(request.headers, 'content-type') ?? '',
              text: requestBody.data,
              ...(requestBody.encoding === 'base64' ? { _encoding: 'base64' as const } : {}),
              ...cut(requestBody),
            },
          }
        : {}),
      headersSize: -1,
      bodySize: requestBody?.bytes ?? 0,
    },
    response: {
      status: response.status,
      statusText: reasonPhrase(response.status),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(response.headers),
      content: {
        size: responseBody?.bytes ?? 0,
        mimeType: headerOf(response.headers, 'content-type') ?? '',
        ...(responseBody
          ? {
              text: responseBody.data,
              ...(responseBody.encoding === 'base64' ? { encoding: 'base64' as const } : {}),
              ...cut(responseBody),
            }
          : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: responseBody?.bytes ?? 0,
    },
    cache: {},
    timings: {
      blocked: -1,
      dns: -1,
      connect: -1,
      ssl: -1,
      send: 0,
      wait: record.durationMs,
      receive: 0,
    },
    ...(outcome.code ? { comment: `${outcome.code}: ${outcome.message ?? ''}` } : {}),
    _exchangeId: record.id,
    _virtualTime: new Date(record.at * 1000).toISOString(),
    _trace: trace,
  }
}

/** A HAR 1.2 archive of `records`, oldest first as HAR viewers expect. */
export function toHar(records: readonly ExchangeRecord[], serviceName: string): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: `${serviceName} playground`, version: '1' },
      entries: [...records].sort((a, b) => a.id - b.id).map(entry),
      comment:
        'Every request here was answered by the engine in the page. The headers hold the tokens that were sent, in full.',
    },
  }
}

/** The file name a HAR of this service is saved under. */
export const harFileName = (serviceName: string, now: Date) =>
  `${serviceName}-exchanges-${now.toISOString().replace(/[:.]/g, '-')}.har`
