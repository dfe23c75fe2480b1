/**
 * A browser's HAR (HTTP Archive 1.2: Chromium's, Firefox's, Playwright's `recordHar`) read as
 * the exchanges a contract is recorded from (decision 095): the entries with the service at
 * its base URL become exchange records, their tokens classified as the engine's trace would
 * have them, and the recorder (`recordContract`) does the rest, as it does for a test's
 * journal. Other hosts, the control plane and CORS preflights are left out and counted.
 */
import { Ajv, type ValidateFunction } from 'ajv'
import schema from '../../../schemas/har.json' with { type: 'json' }
import { headerOf } from '../../client/exchange'
import type { CredentialTrace, ExchangeRecord, LoggedBody } from '../../engine'
import { bearerToken, fromBase64, fromBase64Url, toBase64, trimBaseUrl } from '../../client/wire'
import type { CaseFile } from '../cases'
import { decodeAnswer } from '../compare'
import { TOKEN_SHAPE } from './answer'
import { recordContract } from './record'
import type { SecretInfo } from './record-context'

/** The largest HAR read: a browser's export of a long session with its bodies fits well below. */
export const MAX_HAR_BYTES = 64 * 1024 * 1024

/** A HAR that cannot be imported: the message names what is wrong and where. */
export class HarError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'HarError'
  }
}

interface HarHeader {
  name: string
  value: string
}

interface HarEntry {
  startedDateTime: string
  time: number
  request: {
    method: string
    url: string
    headers: HarHeader[]
    bodySize?: number
    /** `_encoding: 'base64'`: a binary body (MessagePack), as the playground's own HAR writes it. */
    postData?: { mimeType?: string; text?: string; _encoding?: string }
  }
  response: {
    status: number
    headers: HarHeader[]
    content: { size?: number; mimeType?: string; text?: string; encoding?: string }
  }
}

/** A HAR, as far as it is read. */
export interface Har {
  log: { version: string; entries: HarEntry[] }
}

let compiled: ValidateFunction<Har> | undefined
const validator = () => (compiled ??= new Ajv({ allErrors: false }).compile<Har>(schema))

/** A HAR file's text, checked: JSON, HAR 1.1 or 1.2, and the shape of what is read. */
export function readHar(file: string, text: string): Har {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new HarError(
      `${file} is not JSON (${(error as Error).message}): was the HAR cut short while it was saved?`,
    )
  }
  const validate = validator()
  if (validate(data)) return data
  const [first] = validate.errors ?? []
  const where = first?.instancePath || '(the file)'
  if (first?.instancePath === '/log/version') {
    throw new HarError(
      `${file}: ${where} is ${JSON.stringify((data as Har).log.version)}; import-har reads HAR 1.2 (or 1.1), as browsers export it`,
    )
  }
  throw new HarError(
    `${file}: ${where} ${first?.message ?? 'is not what a HAR holds'}: not a HAR as browsers export it (log.entries[] with request and response)`,
  )
}

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

/** An entry's label in messages: its number in the file, method and URL without query. */
const labelOf = (index: number, entry: HarEntry) =>
  `entry ${index + 1} (${entry.request.method} ${entry.request.url.split('?')[0]})`

const pairs = (headers: HarHeader[]): Array<[string, string]> =>
  headers.filter(({ name }) => !name.startsWith(':')).map(({ name, value }) => [name, value])

const textBody = (text: string): LoggedBody => ({
  encoding: 'text',
  data: text,
  bytes: new TextEncoder().encode(text).length,
  truncated: false,
})

/** The request's body as logged; a HarError when it says base64 and is not. */
function requestBody(index: number, entry: HarEntry): LoggedBody | null {
  const post = entry.request.postData
  if (post?.text === undefined || post.text === '') return null
  if (post._encoding !== 'base64') return textBody(post.text)
  return base64Body(`${labelOf(index, entry)}: its request body`, post.text)
}

/** A base64 body as logged, checked: a HarError naming `what` when it does not decode. */
function base64Body(what: string, text: string): LoggedBody {
  let bytes: Uint8Array
  try {
    bytes = fromBase64(text.replace(/\s+/g, ''))
  } catch {
    throw new HarError(`${what} is marked base64 but does not decode`)
  }
  return { encoding: 'base64', data: toBase64(bytes), bytes: bytes.length, truncated: false }
}

/** The answer's body as logged; a HarError when it says base64 and is not. */
function responseBody(index: number, entry: HarEntry): LoggedBody | null {
  const { text, encoding } = entry.response.content
  if (text === undefined) return null
  if (encoding === undefined) return textBody(text)
  if (encoding !== 'base64') {
    throw new HarError(
      `${labelOf(index, entry)}: its response content's encoding is ${JSON.stringify(encoding)}; a HAR's is base64 or none`,
    )
  }
  return base64Body(`${labelOf(index, entry)}: its response content`, text)
}

/**
 * What an authorization of the engine's own says of itself, read without its signature
 * checked: only to make a token like it again in the contract (a `mint` step), never to trust
 * it; `verify` asks the service itself. `undefined` for any other token.
 */
function readAuthorization(token: string): Partial<CredentialTrace> | undefined {
  if (!TOKEN_SHAPE.test(token)) return undefined
  const raw = fromBase64Url(token.slice(0, token.indexOf('.')))
  if (!raw) return undefined
  try {
    const p = JSON.parse(new TextDecoder().decode(raw)) as Record<string, unknown>
    if (typeof p.s !== 'string' || !Array.isArray(p.a)) return undefined
    if (!p.a.every((a) => typeof a === 'string') || typeof p.t !== 'number') return undefined
    return {
      secretId: p.s,
      abilities: p.a as string[],
      insecure: p.i === true,
      createdAt: p.t,
      expiresAt: typeof p.e === 'number' ? p.e : null,
    }
  } catch {
    return undefined
  }
}

const credential = (fields: Partial<CredentialTrace>): CredentialTrace => ({
  kind: 'unknown',
  decision: 'accepted',
  reason: null,
  secretId: null,
  abilities: null,
  insecure: null,
  createdAt: null,
  expiresAt: null,
  secretExpiresAt: null,
  explanation: '',
  ...fields,
})

/** The service's name, from the first request body in its media type: `service` if none. */
function serviceNameOf(entries: HarEntry[]): string {
  for (const entry of entries) {
    const type = headerOf(pairs(entry.request.headers), 'content-type') ?? ''
    const named = /application\/vnd\.([a-z][a-z0-9_-]*)\+(json|msgpack)/i.exec(type)
    if (named) return named[1]!
  }
  return 'service'
}

/**
 * The service's base URL, when not given: the origin (and `/a/<id>` of an account hosted on
 * `serve`) of the first `POST` that sends a bearer token.
 */
function baseUrlOf(file: string, entries: HarEntry[]): string {
  for (const entry of entries) {
    const headers = pairs(entry.request.headers)
    if (entry.request.method !== 'POST' || !bearerToken(headerOf(headers, 'authorization'))) {
      continue
    }
    try {
      const url = new URL(entry.request.url)
      const hosted = /^\/a\/[A-Za-z0-9_-]+(?=\/)/.exec(url.pathname)
      return `${url.origin}${hosted ? hosted[0] : ''}`
    } catch {
      continue
    }
  }
  throw new HarError(
    `${file}: no request in it sends a bearer token, so the service's base URL cannot be found: give --base-url URL`,
  )
}

/** The result an `auth.create` answer gave, when it gave one. */
function mintedBy(record: ExchangeRecord): string | undefined {
  if (record.trace.endpoint !== 'auth.create' || !record.response.body) return undefined
  const headers = Object.fromEntries(record.response.headers.map(([k, v]) => [k.toLowerCase(), v]))
  const body = record.response.body
  try {
    const decoded = decodeAnswer({
      status: record.response.status,
      headers,
      body: body.encoding === 'base64' ? body.data : toBase64(body.data),
    })
    return decoded.ok && typeof decoded.value === 'string' ? decoded.value : undefined
  } catch {
    return undefined
  }
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
  const secrets = classifyTokens(records, notes, counts, labels)
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

/** An outcome code marking a record the classification left out. */
const LEFT_OUT = 'har_left_out'

/**
 * Gives each record the credential its token was, as far as the HAR shows: made by an
 * `auth.create` in it, an authorization of the engine's (read from itself), a secret (taken by
 * the service, and not an authorization), or unknown (refused). A success with an authorization
 * that cannot be read is left out. Returns the secrets, for the recorder never to copy.
 */
function classifyTokens(
  records: ExchangeRecord[],
  notes: string[],
  counts: HarCounts,
  labels: Map<ExchangeRecord, string>,
): SecretInfo[] {
  const minted = new Set<string>()
  const secrets = new Map<string, SecretInfo>()
  for (const r of records) {
    const token = bearerToken(headerOf(r.request.headers, 'authorization'))
    if (token !== undefined) {
      const read = readAuthorization(token)
      const refused = r.response.status === 401
      if (minted.has(token) || read) {
        r.trace.credential = credential({ kind: 'authorization', ...read })
      } else if (TOKEN_SHAPE.test(token) && !refused) {
        r.trace.outcome.code = LEFT_OUT
        counts.leftOut++
        notes.push(
          `${labels.get(r)!} left out: its authorization was made before the HAR began, by a service whose tokens cannot be read here; record the HAR from the call that makes it`,
        )
      } else if (!refused) {
        let secret = secrets.get(token)
        if (!secret) {
          secret = { id: `har-secret-${secrets.size + 1}`, key: token }
          secrets.set(token, secret)
        }
        r.trace.credential = credential({ kind: 'secret', secretId: secret.id! })
      }
    }
    const made = mintedBy(r)
    if (made !== undefined) minted.add(made)
  }
  // Tokens the service refused are never copied either: each is forged in the contract.
  const refusedTokens = records.flatMap((r) => {
    const token = bearerToken(headerOf(r.request.headers, 'authorization'))
    return token !== undefined && !secrets.has(token) ? [{ key: token }] : []
  })
  return [...secrets.values(), ...refusedTokens]
}
