import type { ExchangeRecord } from '../../engine'
import { loggedBytes, readBody } from '../shared/wire'
import { endpointOf, headerOf, tokenOf } from './records'
import { factsOf } from './summary'

/** The console's form for an exchange, and what it could not carry over. */
export interface ConsoleLink {
  params: URLSearchParams
  /** Said beside the link: a body the log cut, a token the console cannot name. */
  notes: string[]
}

/** The token an exchange was sent with, as a console choice id; `undefined` when none names it. */
export function sentChoice(record: ExchangeRecord): string | undefined {
  const credential = record.trace.credential
  const token = tokenOf(record)
  if (credential?.kind === 'secret' && credential.secretId) return `secret:${credential.secretId}`
  if (credential?.kind === 'authorization' && token) return `authorization:${token}`
  if (!token && (!credential || credential.kind === 'none')) return 'none'
  return undefined
}

/** The `accept` choice of the console that sends the header a request carried. */
function acceptOf(accept: string | undefined): string {
  if (!accept) return ''
  if (/msgpack/i.test(accept)) return 'msgpack'
  if (/^application\/vnd\.[^+]+\+json/i.test(accept)) return 'tuples'
  if (/json/i.test(accept)) return 'json'
  if (/^text\/plain/i.test(accept)) return 'text'
  return ''
}

/**
 * The console's form for the request an exchange made: its endpoint, its body in the format it
 * was sent (text as the input, JSON as the input, tuples and MessagePack as the tuples edited by
 * hand), its query string as arguments, its `accept`, and the token `token` (a choice id; the
 * one it was sent with by default).
 */
export function consoleLink(record: ExchangeRecord, token: string | undefined): ConsoleLink {
  const { request } = record
  const params = new URLSearchParams([['endpoint', endpointOf(record)]])
  const notes: string[] = []
  if (token) params.set('token', token)
  const contentType = headerOf(request.headers, 'content-type') ?? ''
  const format = factsOf(record).format
  const read = request.body
    ? readBody(loggedBytes(request.body), contentType)
    : { raw: '', pretty: '' }
  switch (format) {
    case 'tuples':
      params.set('format', 'tuples')
      params.set('raw', read.raw)
      break
    case 'msgpack':
      params.set('format', 'msgpack')
      params.set('raw', 'value' in read ? JSON.stringify(read.value, null, 2) : '')
      break
    case 'json':
      params.set('format', 'json')
      if (read.raw !== '') params.set('input', read.raw)
      break
    case 'none':
      params.set('format', 'query')
      break
    default:
      params.set('format', 'text')
      if (read.raw !== '') params.set('input.text', read.raw)
  }
  let query: URLSearchParams
  try {
    query = new URL(request.url).searchParams
  } catch {
    query = new URLSearchParams()
  }
  // Query values are text, as the wire reads them.
  for (const [name, value] of query) params.append(`text.${name}`, value)
  const accept = acceptOf(headerOf(request.headers, 'accept'))
  if (accept) params.set('accept', accept)
  if (request.body?.truncated) {
    notes.push(
      `The log kept only the first ${request.body.data.length.toLocaleString('en-US')} characters of its ${request.body.bytes.toLocaleString('en-US')}-byte body: the console opens with those.`,
    )
  }
  if (format === 'other') notes.push(`Its body (${contentType}) opens as text/plain.`)
  return { params, notes }
}
