import { InvalidError, MethodError, UndefinedError, UnsupportedMediaError } from '../errors'
import { MAX_JOURNAL_BYTES } from './exchange-log'
import { readFaultRule } from './faults'
import type { Registry } from '../packages'
import { isObject } from '../runtime/types'
import type { Json } from '../store'
import { decodeText, parseJson, readBody } from '../wire/body'
import { errorResponse, resultResponse } from '../wire/response'
import type { Account } from '../account/account'
import type { OperatorState } from './state'

/** The most exchanges a journal keeps. */
export const MAX_JOURNAL = 10_000

/** An import carries the whole account; every other control-plane body is small. */
const IMPORT_BODY_LIMIT = 64 * 1024 * 1024

type Route = (
  body: Record<string, Json>,
  params: string[],
  query: URLSearchParams,
) => Promise<unknown>

/**
 * The account control plane under `<baseUrl>/_account/`: JSON in, JSON out. It answers no
 * other origin (no CORS headers), and a POST must say `content-type: application/json`, which
 * a page on another origin cannot send without a preflight that is refused: no web page the
 * user visits can read the secrets or wipe the account. Over HTTP, `serve` also asks for its
 * control token.
 *
 * - `GET secrets`, `POST secrets` `{ key? }`, `POST secrets/<id>/roll` `{ at? }`
 * - `GET clock` → `{ now }`, `POST clock` `{ advance }`
 * - `POST reset`, `GET export`, `POST import`, `POST inspect` `{ token }`, `GET endpoints`
 * - `GET faults`, `POST faults` `{ kind?, status?, count?, once?, endpoint?, token?,
 *   probability?, delayMs?, retryAfter? }`, `POST faults/clear`, `POST faults/<id>/clear`; `GET rate-limit`, `POST rate-limit` `{ enforce, limit?, windowSeconds? }`
 * - `GET strict` → `{ enabled, requests }` (each request and its deviations), `POST strict` `{ enabled }`
 * - `GET exchanges?after=<id>` → `{ capacity, maxBytes, exchanges }`, the last requests to
 *   endpoints with their answers and decision traces, newest first, at most `capacity` of them
 *   within `maxBytes` of JSON; `POST exchanges` `{ capacity }` turns the journal on (or off
 *   with 0); `POST exchanges/clear`
 * - `GET procedures` → every stored procedure, by name
 * - `GET buckets` → `[{ bucket, keys }]`, every key-value bucket with its count of keys, by name
 */
export function createControlPlane({
  account,
  registry,
  serviceName,
  maxBodyBytes,
  operator,
  reset,
}: {
  account: Account
  registry: Registry
  serviceName: string
  maxBodyBytes: number
  operator: OperatorState
  /** The engine's one reset: see `Engine.reset`. */
  reset: () => Promise<void>
}) {
  const { faults, journal } = operator
  const routes: Array<[method: string, pattern: RegExp, route: Route]> = [
    ['GET', /^secrets$/, () => account.listSecrets()],
    ['POST', /^secrets$/, (body) => account.createSecret({ key: optional(body, 'key', 'string') })],
    [
      'POST',
      /^secrets\/([^/]+)\/roll$/,
      (body, [id]) => account.rollSecret(id!, { at: optional(body, 'at', 'number') }),
    ],
    ['GET', /^clock$/, async () => ({ now: await account.now() })],
    [
      'POST',
      /^clock$/,
      async (body) => ({ now: await account.advanceClock(required(body, 'advance', 'number')) }),
    ],
    ['POST', /^reset$/, async () => (await reset(), { ok: true })],
    ['GET', /^faults$/, () => faults.list()],
    ['POST', /^faults$/, async (body) => (await faults.add(readFaultRule(body)), faults.list())],
    ['POST', /^faults\/clear$/, async () => (await faults.clear(), [])],
    [
      'POST',
      /^faults\/([^/]+)\/clear$/,
      async (_body, [id]) => {
        if (!(await faults.remove(id!))) throw new UndefinedError(`no fault \`${id}'`)
        return faults.list()
      },
    ],
    ['GET', /^rate-limit$/, async () => (await operator.view()).rateLimit],
    [
      'GET',
      /^strict$/,
      async () => {
        const [{ strict: enabled }, requests] = await Promise.all([
          operator.view(),
          operator.strict.report(),
        ])
        return { enabled, requests }
      },
    ],
    [
      'POST',
      /^strict$/,
      async (body) => {
        const enabled = required(body, 'enabled', 'boolean')
        await operator.strict.set(enabled)
        return { enabled, requests: [] }
      },
    ],
    [
      'POST',
      /^rate-limit$/,
      async (body) => {
        const enforce = required(body, 'enforce', 'boolean')
        const { rateLimit } = await operator.view()
        const limit = optional(body, 'limit', 'number') ?? rateLimit.limit
        const windowSeconds = optional(body, 'windowSeconds', 'number') ?? rateLimit.windowSeconds
        if (!Number.isInteger(limit) || limit < 1 || !(windowSeconds > 0)) {
          throw new InvalidError(
            "`limit' must be a whole number of calls, at least 1, and `windowSeconds' more than 0",
          )
        }
        const changed = { enforce, limit, windowSeconds }
        await operator.rate.set(changed)
        return changed
      },
    ],
    ['GET', /^export$/, () => account.exportSnapshot()],
    ['POST', /^import$/, async (body) => (await account.importSnapshot(body), { ok: true })],
    ['POST', /^inspect$/, (body) => account.inspect(required(body, 'token', 'string'))],
    ['GET', /^endpoints$/, async () => describeEndpoints(registry)],
    ['GET', /^procedures$/, () => account.listProcedures()],
    ['GET', /^buckets$/, () => account.listBuckets()],
    [
      'GET',
      /^exchanges$/,
      async (_body, _params, query) => {
        const after = afterOf(query)
        const [{ journal: capacity }, exchanges] = await Promise.all([
          operator.view(),
          journal.list(after),
        ])
        return { capacity, maxBytes: MAX_JOURNAL_BYTES, exchanges }
      },
    ],
    [
      'POST',
      /^exchanges$/,
      async (body) => {
        const capacity = required(body, 'capacity', 'number')
        if (!Number.isInteger(capacity) || capacity < 0 || capacity > MAX_JOURNAL) {
          throw new InvalidError(
            `\`capacity' must be a whole number of exchanges from 0 (off) to ${MAX_JOURNAL}`,
          )
        }
        await journal.setCapacity(capacity)
        return { capacity }
      },
    ],
    ['POST', /^exchanges\/clear$/, async () => (await journal.clear(), { ok: true })],
  ]

  return async function control(request: Request, path: string): Promise<Response> {
    try {
      const matching = routes.filter(([, pattern]) => pattern.test(path))
      if (matching.length === 0) throw new UndefinedError(`no account route \`${path}'`)
      const found = matching.find(([method]) => method === request.method)
      if (!found) throw new MethodError(matching.map(([method]) => method).join(', '))
      const [, pattern, route] = found
      const params = pattern.exec(path)!.slice(1).map(decodeSegment)
      const limit = path === 'import' ? IMPORT_BODY_LIMIT : maxBodyBytes
      const body = request.method === 'GET' ? {} : await readJsonObject(request, limit)
      const query = new URL(request.url).searchParams
      const answer = (await route(body, params, query)) as Json
      return sameOrigin(resultResponse(answer, 'json', serviceName))
    } catch (error) {
      return sameOrigin(errorResponse(error, 'json', serviceName))
    }
  }
}

/** Takes off the headers that would let another origin read the answer. */
function sameOrigin(response: Response): Response {
  for (const name of [...response.headers.keys()]) {
    if (name.startsWith('access-control-')) response.headers.delete(name)
  }
  return response
}

async function readJsonObject(request: Request, limit: number): Promise<Record<string, Json>> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase()
  if (type !== 'application/json') {
    throw new UnsupportedMediaError(
      `the account control plane reads JSON: send the body with content-type: application/json${type ? `, not ${type}` : ''}`,
    )
  }
  const text = decodeText(await readBody(request, limit))
  if (text.trim() === '') return {}
  const value = parseJson(text)
  if (!isObject(value)) throw new InvalidError('the body must be a JSON object')
  return value
}

function optional(body: Record<string, Json>, field: string, type: 'string'): string | undefined
function optional(body: Record<string, Json>, field: string, type: 'number'): number | undefined
function optional(
  body: Record<string, Json>,
  field: string,
  type: 'string' | 'number' | 'boolean',
) {
  const value = body[field]
  if (value === undefined || value === null) return undefined
  if (typeof value !== type) throw new InvalidError(`\`${field}' must be a ${type}`)
  return value
}

function required(body: Record<string, Json>, field: string, type: 'string'): string
function required(body: Record<string, Json>, field: string, type: 'number'): number
function required(body: Record<string, Json>, field: string, type: 'boolean'): boolean
function required(
  body: Record<string, Json>,
  field: string,
  type: 'string' | 'number' | 'boolean',
) {
  const value = body[field]
  if (typeof value !== type) throw new InvalidError(`\`${field}' is required and must be a ${type}`)
  return value
}

function describeEndpoints(registry: Registry) {
  return registry.list().map((endpoint) => ({
    name: endpoint.name,
    summary: endpoint.summary,
    insecure: endpoint.insecure === true,
    input: endpoint.input ?? null,
    args: endpoint.args ?? {},
  }))
}

function afterOf(query: URLSearchParams): number {
  const after = query.get('after')
  if (after === null) return 0
  if (!/^\d{1,15}$/.test(after)) {
    throw new InvalidError("`after' must be the id of an exchange, a whole number")
  }
  return Number(after)
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw new InvalidError(`\`${segment}' is not a valid URL path segment`)
  }
}
