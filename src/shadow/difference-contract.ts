/**
 * A difference as a contract `verify` replays against the engine: the differing call with the
 * upstream's answer as what it must answer, after the calls of the run that wrote what it read
 * (the engine's own answers to them). The mirror's journal records are the recorder's input
 * (decision 036): tokens become roles — an authorization a `mint` step from its secret — and
 * what differs by nature is matched by type or pattern. Verified against the engine, it fails
 * at its last step until the engine answers as the upstream did.
 */
import type { CaseFile } from '../conformance/cases'
import { recordContract } from '../conformance/contract/record'
import { formatContract } from '../conformance/contract/format'
import type { ExchangeRecord, LoggedBody, SecretView } from '../engine'
import { formatOfMediaType } from '../engine/wire/formats'
import type { Seen } from './answers'
import type { Twins } from './twins'
import { toBase64 } from '../client/wire'

/** A body as the journal logs it. */
function logged(body: Uint8Array, format: string | undefined): LoggedBody | null {
  if (body.length === 0) return null
  if (format !== 'msgpack') {
    try {
      const data = new TextDecoder('utf-8', { fatal: true }).decode(body)
      return { encoding: 'text', data, bytes: body.length, truncated: false }
    } catch {
      // Not UTF-8 text: kept as bytes.
    }
  }
  return {
    encoding: 'base64',
    data: toBase64(body),
    bytes: body.length,
    truncated: false,
  }
}

/**
 * The mirror's record of the differing exchange with the upstream's answer in place of the
 * engine's, its tokens and cursors swapped for their engine twins (the recorder knows those).
 */
export function withUpstreamAnswer(
  record: ExchangeRecord,
  upstream: Seen,
  twins: Twins,
): ExchangeRecord {
  const format = formatOfMediaType(upstream.headers['content-type'])
  const body =
    format === 'msgpack'
      ? twins.swapMsgpack(upstream.body)
      : new TextEncoder().encode(twins.swapText(new TextDecoder().decode(upstream.body)))
  const headers: Array<[string, string]> = Object.entries(upstream.headers)
    .filter(([name]) => name !== 'content-encoding' && name !== 'content-length')
    .map(([name, value]) => [name, name === 'x-cursor' ? (twins.engineOf(value) ?? value) : value])
  return {
    ...record,
    response: { status: upstream.status, headers, body: logged(body, format) },
  }
}

export interface DifferenceContext {
  name: string
  serviceName: string
  /** The mirror's base URL: the records' URLs are below it. */
  baseUrl: string
  secrets: SecretView[]
  /** The file's `$schema`: where the published schema is, from where it is written. */
  $schema?: string
}

/** The contract's file text; throws (the recorder's `RecordError`) when it cannot be made. */
export function differenceContract(
  records: readonly ExchangeRecord[],
  context: DifferenceContext,
  twins: Twins,
): string {
  const file: CaseFile = recordContract(records, {
    name: context.name,
    serviceName: context.serviceName,
    baseUrl: context.baseUrl,
    secrets: context.secrets,
    description:
      'A difference the shadow found: the last step is the call on which the upstream and the engine answered differently, with the upstream’s answer as what it expects; the steps before it wrote what it read. `verify` replays it against the engine, where it fails until the engine answers as the upstream did.',
  })
  const text = formatContract(context.$schema ? { $schema: context.$schema, ...file } : file)
  // The recorder guards the engine's tokens; this guards the upstream's too.
  for (const value of twins.values()) {
    if (value.length >= 8 && text.includes(value)) {
      throw new Error('it would hold a token or secret the recorder could not turn into a role')
    }
  }
  return text
}
