import { decode, encode } from '@msgpack/msgpack'
import { isDeepStrictEqual } from 'node:util'
import type { Case, CallStep, Expect, Format, Step } from './cases'

/** A request as any target can carry it, a browser page included. */
export interface WireRequest {
  url: string
  method: string
  headers: Record<string, string>
  /** Base64 of the body's bytes, or absent for none. */
  body?: string
}

export interface WireResponse {
  status: number
  headers: Record<string, string>
  /** Base64 of the body's bytes. */
  body: string
}

/** Where cases run: anything that answers requests at `baseUrl`. */
export interface Target {
  name: string
  baseUrl: string
  serviceName: string
  send(request: WireRequest): Promise<WireResponse>
  /**
   * The account control plane (`/_account/...`), when this target lets us manage the account
   * and the clock; absent for a deployment we only hold a secret for.
   */
  control?: (path: string, body?: unknown) => Promise<unknown>
  /** The secret to use when there is no control plane. */
  secret?: string
}

export interface CaseResult {
  id: string
  steps: number
  status: 'passed' | 'failed' | 'skipped'
  /** Why it failed (naming the step) or was skipped. */
  reason?: string
  ms: number
}

const bytes = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'))
const base64 = (data: Uint8Array | string) =>
  (typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data)).toString('base64')

class StepFailure extends Error {}
class Skip extends Error {}

/** Replaces `"$name"` strings, anywhere in a value, with what was bound to `name`. */
function bindValues(value: unknown, bound: Map<string, unknown>): unknown {
  if (typeof value === 'string' && value.startsWith('$') && bound.has(value.slice(1))) {
    return bound.get(value.slice(1))
  }
  if (Array.isArray(value)) return value.map((item) => bindValues(item, bound))
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bindValues(v, bound)]))
  }
  return value
}

const asQueryValue = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))

function buildRequest(
  target: Target,
  step: CallStep,
  format: Format,
  bound: Map<string, unknown>,
): WireRequest {
  const vnd = `application/vnd.${target.serviceName}`
  const url = new URL(`${target.baseUrl}/${step.call.split('.').join('/')}`)
  const headers: Record<string, string> = {}
  const token = step.token === undefined ? '$secret' : step.token
  if (step.authorization !== undefined) headers.authorization = step.authorization
  else if (token !== null) headers.authorization = `Bearer ${String(bindValues(token, bound))}`
  const input = bindValues(step.input, bound)
  const args = (bindValues(step.args ?? {}, bound) ?? {}) as Record<string, unknown>
  const tuples = [
    ...(step.input === undefined ? [] : [['>>', input]]),
    ...Object.entries(args).map(([name, value]) => ['$$', name, value]),
  ]
  let body: string | Uint8Array | undefined
  let type: string | undefined
  let accept: string
  switch (format) {
    case 'tuples':
      ;[body, type, accept] = [JSON.stringify(tuples), `${vnd}+json`, `${vnd}+json`]
      break
    case 'msgpack':
      ;[body, type, accept] = [encode(tuples), `${vnd}+msgpack`, `${vnd}+msgpack`]
      break
    case 'json':
    case 'text':
    case 'query':
      for (const [name, value] of Object.entries(args))
        url.searchParams.set(name, asQueryValue(value))
      if (format === 'json' && step.input !== undefined) {
        ;[body, type] = [JSON.stringify(input), 'application/json']
      } else if (format === 'text' && step.input !== undefined) {
        ;[body, type] = [asQueryValue(input), 'text/plain']
      }
      accept = format === 'text' ? 'text/plain' : 'application/json'
      break
  }
  if (step.body !== undefined) body = step.body
  if (step.contentType !== undefined) type = step.contentType
  if (type !== undefined) headers['content-type'] = type
  headers.accept = step.accept ?? accept
  return {
    url: url.toString(),
    method: step.method ?? 'POST',
    headers,
    ...(body === undefined ? {} : { body: base64(body) }),
  }
}

interface Decoded {
  ok: boolean
  value?: unknown
  message?: string
  /** A text/plain answer: a value that is not a string arrives as its JSON text. */
  text?: boolean
}

/** The answer's value or error message, read the way its content type says. */
function decodeAnswer(response: WireResponse): Decoded {
  const type = (response.headers['content-type'] ?? '').split(';')[0]!.trim()
  const raw = bytes(response.body)
  const text = () => new TextDecoder().decode(raw)
  if (type.endsWith('+msgpack') || type.endsWith('+json')) {
    const tuples = (type.endsWith('+msgpack') ? decode(raw) : JSON.parse(text())) as [
      [string, unknown],
    ]
    const [[marker, value]] = tuples
    if (marker === '<<') return { ok: true, value }
    return { ok: false, message: (value as { message: string }).message }
  }
  if (type === 'application/json') {
    const value = JSON.parse(text()) as unknown
    const error = (value as { error?: { message?: string } } | null)?.error
    if (response.status !== 200 && error) return { ok: false, message: error.message ?? '' }
    return { ok: true, value }
  }
  return response.status === 200
    ? { ok: true, value: text(), text: true }
    : { ok: false, message: text(), text: true }
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const show = (value: unknown) => JSON.stringify(value) ?? String(value)

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  return Array.isArray(value) ? 'array' : typeof value
}

function check(expect: Expect, response: WireResponse, decoded: Decoded): void {
  const fail = (what: string) => {
    throw new StepFailure(what)
  }
  if (response.status !== expect.status) {
    fail(
      `expected status ${expect.status}, got ${response.status} (${show(decoded.ok ? decoded.value : decoded.message)})`,
    )
  }
  const value =
    decoded.text && typeof expect.result !== 'string' && expect.result !== undefined
      ? parseOr(decoded.value as string)
      : decoded.value
  if (expect.result !== undefined && !isDeepStrictEqual(value, expect.result)) {
    fail(`expected result ${show(expect.result)}, got ${show(value)}`)
  }
  if (expect.resultType !== undefined && typeOf(decoded.value) !== expect.resultType) {
    fail(`expected a result of type ${expect.resultType}, got ${show(decoded.value)}`)
  }
  if (expect.message !== undefined && decoded.message !== expect.message) {
    fail(`expected message ${show(expect.message)}, got ${show(decoded.message)}`)
  }
  if (
    expect.messageMatch !== undefined &&
    !new RegExp(expect.messageMatch).test(decoded.message ?? '')
  ) {
    fail(`expected a message matching /${expect.messageMatch}/, got ${show(decoded.message)}`)
  }
  for (const [name, wanted] of Object.entries(expect.headers ?? {})) {
    const actual = response.headers[name.toLowerCase()]
    if (
      wanted === null
        ? actual !== undefined
        : typeof wanted === 'string'
          ? actual !== wanted
          : !new RegExp(wanted.match).test(actual ?? '')
    ) {
      fail(`expected header ${name} ${show(wanted)}, got ${show(actual)}`)
    }
  }
}

async function runStep(
  target: Target,
  step: Step,
  format: Format,
  bound: Map<string, unknown>,
): Promise<void> {
  if ('call' in step) {
    const response = await target.send(buildRequest(target, step, step.format ?? format, bound))
    let decoded: Decoded
    try {
      decoded = decodeAnswer(response)
    } catch (error) {
      throw new StepFailure(
        `the answer (status ${response.status}) could not be read: ${(error as Error).message}`,
      )
    }
    check(step.expect, response, decoded)
    if (step.bind) {
      const { as, from } = step.bind
      bound.set(
        as,
        from === 'result' ? decoded.value : response.headers[from.slice('header:'.length)],
      )
    }
    return
  }
  const { control } = target
  if (!control) throw new Skip('needs the account control plane, which this target does not offer')
  if ('secret' in step) {
    bound.set(step.secret, ((await control('secrets', {})) as { key: string }).key)
  } else if ('roll' in step) {
    const secrets = (await control('secrets')) as Array<{ id: string; key: string }>
    const secret = secrets.find(({ key }) => key === bound.get(step.roll))
    if (!secret) throw new StepFailure(`no secret is bound to ${step.roll}`)
    const now = ((await control('clock')) as { now: number }).now
    const body = step.in === undefined ? {} : { at: now + step.in }
    const next = (await control(`secrets/${encodeURIComponent(secret.id)}/roll`, body)) as {
      key: string
    }
    bound.set(step.as, next.key)
  } else {
    await control('clock', { advance: step.advance })
  }
}

/** Runs one case on a fresh account: `$secret` is bound to a new secret (or the given one). */
export async function runCase(target: Target, c: Case): Promise<CaseResult> {
  const started = performance.now()
  const result = (status: CaseResult['status'], reason?: string): CaseResult => ({
    id: c.id,
    steps: c.steps.length,
    status,
    ...(reason === undefined ? {} : { reason }),
    ms: performance.now() - started,
  })
  const bound = new Map<string, unknown>()
  if (c.fresh && !target.control) {
    return result('skipped', 'needs an empty account, which only the control plane can give')
  }
  if (target.control) {
    await target.control('reset', {})
    bound.set('secret', ((await target.control('secrets', {})) as { key: string }).key)
  } else {
    bound.set('secret', target.secret)
  }
  for (const [index, step] of c.steps.entries()) {
    try {
      await runStep(target, step, c.format, bound)
    } catch (error) {
      const where = `step ${index + 1}${'call' in step ? ` (${step.call})` : ''}`
      if (error instanceof Skip) return result('skipped', `${where} ${error.message}`)
      if (error instanceof StepFailure) return result('failed', `${where}: ${error.message}`)
      return result('failed', `${where}: ${(error as Error).message}`)
    }
  }
  return result('passed')
}

/** Runs every case in order (cases share one account, reset before each). */
export async function runCases(target: Target, cases: readonly Case[]): Promise<CaseResult[]> {
  const results: CaseResult[] = []
  for (const c of cases) results.push(await runCase(target, c))
  return results
}
