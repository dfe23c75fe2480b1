// A step as the request it sends: bound values, the body format, the service's name in place.
import { encode } from '@msgpack/msgpack'
import { authCreateArgs } from '../client/authorize'
import { callTuples, fromBase64, toBase64 } from '../client/wire'
import type { CallStep, Format, MintStep, Step } from './cases'
import type { Target, WireRequest } from './target'
import { patternWithServiceName, withServiceName } from './service-name'

export const bytes = fromBase64
export const base64 = toBase64

const NOW = /^\$now(?:([+-])(\d+(?:\.\d+)?))?$/

/**
 * Replaces `"$name"` strings, anywhere in a value, with what was bound to `name`, and
 * `"$now+N"` with the target's clock N seconds on (when `now` is given).
 */
export function bindValues(value: unknown, bound: Map<string, unknown>, now?: number): unknown {
  if (typeof value === 'string' && value.startsWith('$')) {
    if (bound.has(value.slice(1))) return bound.get(value.slice(1))
    const relative = now === undefined ? null : NOW.exec(value)
    if (relative) return now! + (relative[1] === '-' ? -1 : 1) * Number(relative[2] ?? 0)
    return value
  }
  if (Array.isArray(value)) return value.map((item) => bindValues(item, bound, now))
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, bindValues(v, bound, now)]))
  }
  return value
}

export const mentionsNow = (value: unknown): boolean =>
  typeof value === 'string'
    ? NOW.test(value)
    : Array.isArray(value)
      ? value.some(mentionsNow)
      : value !== null && typeof value === 'object' && Object.values(value).some(mentionsNow)

const asQueryValue = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value))

export function buildRequest(
  target: Target,
  step: CallStep,
  format: Format,
  bound: Map<string, unknown>,
  now?: number,
): WireRequest {
  const vnd = `application/vnd.${target.serviceName}`
  const url = new URL(`${target.baseUrl}/${step.call.split('.').join('/')}`)
  const headers: Record<string, string> = {}
  const token = step.token === undefined ? '$secret' : step.token
  if (step.authorization !== undefined) headers.authorization = step.authorization
  else if (token !== null) headers.authorization = `Bearer ${String(bindValues(token, bound))}`
  const input = bindValues(step.input, bound, now)
  const args = (bindValues(step.args ?? {}, bound, now) ?? {}) as Record<string, unknown>
  const tuples = callTuples(step.input === undefined ? undefined : input, Object.entries(args))
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
  const query = bindValues(step.query ?? {}, bound) as Record<string, unknown>
  for (const [name, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      url.searchParams.append(name, String(item))
    }
  }
  if (step.body !== undefined) body = step.body
  if (step.bodyBase64 !== undefined) body = bytes(step.bodyBase64)
  if (step.contentType !== undefined) type = step.contentType ?? undefined
  if (type !== undefined) headers['content-type'] = type
  const answerIn = step.accept === undefined ? accept : step.accept
  if (answerIn !== null) headers.accept = answerIn
  return {
    url: url.toString(),
    method: step.method ?? 'POST',
    headers,
    ...(body === undefined ? {} : { body: base64(body) }),
  }
}

/** A step with `{service}` replaced by the target's name (as a literal inside patterns). */
export function placeServiceName(step: Step, name: string): Step {
  if (!('call' in step)) return withServiceName(step, name)
  const { expect, ...call } = step
  const { messageMatch, headers, matchers, ...rest } = expect
  return {
    ...withServiceName(call, name),
    expect: {
      ...withServiceName(rest, name),
      ...(messageMatch === undefined
        ? {}
        : { messageMatch: patternWithServiceName(messageMatch, name) }),
      ...(headers === undefined
        ? {}
        : {
            headers: Object.fromEntries(
              Object.entries(headers).map(([header, wanted]) => [
                header,
                wanted !== null && typeof wanted === 'object'
                  ? { match: patternWithServiceName(wanted.match, name) }
                  : withServiceName(wanted, name),
              ]),
            ),
          }),
      ...(matchers === undefined
        ? {}
        : {
            matchers: Object.fromEntries(
              Object.entries(matchers).map(([pointer, rule]) => [
                pointer,
                'regex' in rule ? { regex: patternWithServiceName(rule.regex, name) } : rule,
              ]),
            ),
          }),
    },
  }
}

/** The call a mint step makes: `auth.create` in tuples, its answer bound to the role. */
export function mintCall(step: MintStep): CallStep {
  return {
    call: 'auth.create',
    token: `$${step.from}`,
    format: 'tuples',
    args: authCreateArgs(step.abilities, {
      ...(step.insecure ? { insecure: true } : {}),
      ...(step.ttl === undefined ? {} : { ttl: step.ttl }),
    }),
    expect: { status: 200, resultType: 'string' },
    bind: { as: step.mint, from: 'result' },
  }
}

/** A step in a few words, for reports. */
export function describeStep(step: Step): string {
  if ('call' in step) return step.call
  if ('mint' in step) return `mint ${step.mint} from ${step.from} (${step.abilities.join(', ')})`
  if ('secret' in step) return `create a secret as ${step.secret}`
  if ('roll' in step) {
    return `roll ${step.roll} ${step.in === undefined ? 'now' : `in ${step.in} s`} as ${step.as}`
  }
  return `advance the clock ${step.advance} s`
}

export const needsControl = (step: Step) => 'secret' in step || 'roll' in step || 'advance' in step
