/**
 * A browser's HAR (HTTP Archive 1.2: Chromium's, Firefox's, Playwright's `recordHar`) read as
 * the exchanges a contract is recorded from (decision 095): the entries with the service at
 * its base URL become exchange records, their tokens classified as the engine's trace would
 * have them, and the recorder (`recordContract`) does the rest, as it does for a test's
 * journal. Other hosts, the control plane and CORS preflights are left out and counted.
 */
import { headerOf } from '../../client/exchange'
import type { ExchangeRecord } from '../../engine'
import { bearerToken, trimBaseUrl } from '../../client/wire'
import type { CaseFile } from '../cases'
import { labelOf, pairs, requestBody, responseBody } from './har-entry'
import { HarError, type Har } from './har-file'
import { baseUrlOf, serviceNameOf } from './har-service'
import { classifyTokens, LEFT_OUT } from './har-tokens'
import { recordContract } from './record'

/** What the import left out, counted. */
export interface HarCounts {
  /** Entries with the service, made exchanges. */
  exchanges: number
  /** Entries to other hosts (the app's own pages, fonts, analytics), by origin. */
  otherHosts: Record<string, number>
  /** Requests to the control plane (`/_account`, `/_accounts`): not the service's interface. */
  controlPlane: number
  /** CORS preflights (`OPTIONS`). */
  preflights: number
  /** Entries with the service that could not be replayed, each named in the contract's notes. */
  leftOut: number
}

export interface HarImport {
  contract: CaseFile
  counts: HarCounts
  /** The base URL the exchanges were read against (given, or found). */
  baseUrl: string
  serviceName: string
}

/**
 * A contract from a HAR's exchanges with the service at `options.baseUrl` (found in the HAR
 * when not given): one case named `options.name`. Tokens become roles as the recorder binds
 * them; a token the HAR shows no origin of is a secret (`$secret`, then new ones) when the
 * service took it, an authorization of the engine's made again with the abilities it carries,
 * and the forged stand-in when the service refused it. No token, secret or cursor is ever
 * written. Throws `HarError` for a HAR that cannot be read, `RecordError` when it holds no
 * exchange with the service that can be replayed.
 */
export function importHar(
  file: string,
  har: Har,
  options: { name: string; baseUrl?: string; serviceName?: string },
): HarImport {
  const entries = har.log.entries
  const baseUrl = trimBaseUrl(options.baseUrl ?? baseUrlOf(file, entries))
  const base = new URL(baseUrl)
  const basePath = base.pathname.replace(/\/+$/, '')
  const serviceName = options.serviceName ?? serviceNameOf(entries)
  const counts: HarCounts = {
    exchanges: 0,
    otherHosts: {},
    controlPlane: 0,
    preflights: 0,
    leftOut: 0,
  }
  const notes: string[] = []
  const records: ExchangeRecord[] = []
  const labels = new Map<ExchangeRecord, string>()
  const order = entries
    .map((entry, index) => {
      const startedAt = Date.parse(entry.startedDateTime)
      if (Number.isNaN(startedAt)) {
        throw new HarError(`${labelOf(index, entry)}: its startedDateTime is not a date`)
      }
      return { entry, index, startedAt }
    })
    .sort((a, b) => a.startedAt - b.startedAt)
  for (const { entry, index, startedAt } of order) {
    let url: URL
    try {
      url = new URL(entry.request.url)
    } catch {
      throw new HarError(`${labelOf(index, entry)}: its request URL is not a URL`)
    }
    if (url.origin !== base.origin || !`${url.pathname}/`.startsWith(`${basePath}/`)) {
      const other = url.origin === 'null' ? url.protocol : url.origin
      counts.otherHosts[other] = (counts.otherHosts[other] ?? 0) + 1
      continue
    }
    const path = url.pathname.slice(basePath.length).replace(/^\/+/, '')
    if (entry.request.method === 'OPTIONS') {
      counts.preflights++
      continue
    }
    if (path.startsWith('_')) {
      // Never read: its bodies hold secrets and control tokens.
      counts.controlPlane++
      continue
    }
    const headers = pairs(entry.request.headers)
    const authorization = headerOf(headers, 'authorization')
    const leave = (why: string) => {
      counts.leftOut++
      notes.push(`${labelOf(index, entry)} left out: ${why}`)
    }
    if (entry.response.status <= 0) {
      leave('it got no answer (the browser shows status 0: blocked, or cut off)')
      continue
    }
    if (authorization !== undefined && bearerToken(authorization) === undefined) {
      leave('its authorization header is not a bearer token, and is not copied')
      continue
    }
    const text = entry.request.postData?.text
    if (text === undefined && (entry.request.bodySize ?? 0) > 0) {
      leave('its request body is not in the HAR (save the HAR with its content)')
      continue
    }
    const durationMs = Math.max(0, entry.time)
    const record: ExchangeRecord = {
      id: records.length + 1,
      startedAt,
      at: (startedAt + durationMs) / 1000,
      durationMs,
      request: {
        method: entry.request.method,
        url: entry.request.url,
        headers,
        body: requestBody(index, entry),
      },
      response: {
        status: entry.response.status,
        headers: pairs(entry.response.headers),
        body: responseBody(index, entry),
      },
      trace: {
        endpoint: path === '' ? null : path.split('/').join('.'),
        credential: null,
        calls: [],
        droppedCalls: 0,
        outcome: { status: entry.response.status, code: null, message: null },
      },
    }
    records.push(record)
    labels.set(record, labelOf(index, entry))
  }
  counts.exchanges = records.length
  const secrets = classifyTokens(records, (r, why) => {
    counts.leftOut++
    notes.push(`${labels.get(r)!} left out: ${why}`)
  })
  const kept = records.filter((r) => r.trace.outcome.code !== LEFT_OUT)
  const contract = recordContract(kept, {
    name: options.name,
    serviceName,
    baseUrl,
    secrets,
    forgeUnknownTokens: true,
    description: `What the exchanges in ${file.split(/[\\/]/).pop()} rely on, imported from the HAR.`,
  })
  if (notes.length > 0) {
    const [first] = contract.cases
    first!.notes = [...notes, ...(first!.notes ?? [])]
  }
  return { contract, counts, baseUrl, serviceName }
}
