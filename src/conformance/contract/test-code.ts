// Exchanges as a Vitest file that replays them with the kit: the playground's "Copy as test".
import type { ExchangeRecord } from '../../engine'
import { fromBase64 } from '../../client/wire'
import { buildRequest, placeServiceName } from '../build'
import type { CallStep } from '../cases'
import { headerOf, tokenOf } from '../../client/exchange'
import { TOKEN_SHAPE } from './answer'
import { recordContract, type SecretInfo } from './record'

export interface TestCodeOptions {
  /** The test's title. */
  name: string
  serviceName: string
  baseUrl: string
  /** The account's secrets now: their keys are never written, only used to name tokens. */
  secrets?: ReadonlyArray<string | SecretInfo>
}

/** Exchanges that cannot be written as a test: the message says which, and why. */
export class TestCodeError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'TestCodeError'
  }
}

/** Marks a bound role inside a built request, to be written as the variable that holds it. */
const MARK = '\u0001'
const marked = new RegExp(`${MARK}([A-Za-z_][A-Za-z0-9_.]*)${MARK}`, 'g')
const markedInUrl = /%01([A-Za-z_][A-Za-z0-9_.]*)%01/g
/** `"$now+600"` in a JSON body, or `$now+600` in text: the clock then, plus or minus seconds. */
const nowInJson = /"\$now([+-]\d+(?:\.\d+)?)"/g
const nowInText = /\$now([+-]\d+(?:\.\d+)?)/g

/** `text` as a template literal, marked roles as `${role}`, `$now±N` as `${now ± N}`. */
function template(text: string, json: boolean): string {
  const escaped = text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${')
  return `\`${escaped
    .replace(
      json ? nowInJson : nowInText,
      (_, offset: string) => `\${now ${offset[0]} ${offset.slice(1)}}`,
    )
    .replace(marked, (_, role: string) => `\${${role}}`)
    .replace(markedInUrl, (_, role: string) => `\${${role}}`)}\``
}

const quote = (value: unknown) => JSON.stringify(value)

/** The variable a role is held in: `secret` is the service's own. */
const variable = (role: string) => (role === 'secret' ? 'service.secret' : role)

/**
 * A Vitest file that replays `exchanges` against the kit in process (`useService` from
 * `service-playground/vitest`, the base URL and service name given): each call through `fetch`
 * as it was sent, its status asserted, its answer where it does not vary from run to run, and
 * `toHaveReceived` for each endpoint at the end. Tokens are never pasted: they are made in the
 * test (`service.authorize`, `service.createSecret`) or read from the answers that gave them,
 * as a contract binds them (the same recorder). Throws `RecordError` when nothing can be
 * replayed, `TestCodeError` for what a test cannot yet make again (a secret's roll, an answer in
 * MessagePack a later call reads).
 */
export function testCode(exchanges: readonly ExchangeRecord[], options: TestCodeOptions): string {
  const sources = new Map<CallStep, ExchangeRecord>()
  const recorded = recordContract(exchanges, {
    name: options.name,
    serviceName: options.serviceName,
    baseUrl: options.baseUrl,
    ...(options.secrets ? { secrets: options.secrets } : {}),
    onCall: (step, record) => sources.set(step, record),
  })
  const [one] = recorded.cases
  const steps = [...(one!.setup ?? []), ...one!.steps]
  const bound = new Map<string, unknown>([['secret', `${MARK}service.secret${MARK}`]])
  const lines: string[] = []
  const received = new Map<string, { statuses: Set<number>; times: number }>()
  let calls = 0
  let usesNow = false
  for (const written of steps) {
    const step = placeServiceName(written, options.serviceName)
    if ('secret' in step) {
      lines.push(`const ${step.secret} = (await service.createSecret()).key`)
      bound.set(step.secret, `${MARK}${step.secret}${MARK}`)
    } else if ('advance' in step) {
      lines.push(`await service.advanceClock(${step.advance})`)
    } else if ('mint' in step) {
      const settings = [
        ...(step.ttl === undefined ? [] : [`ttl: ${step.ttl}`]),
        ...(step.insecure ? ['insecure: true'] : []),
        ...(step.from === 'secret' ? [] : [`token: ${variable(step.from)}`]),
      ]
      const extra = settings.length ? `, { ${settings.join(', ')} }` : ''
      lines.push(`const ${step.mint} = await service.authorize(${quote(step.abilities)}${extra})`)
      bound.set(step.mint, `${MARK}${step.mint}${MARK}`)
    } else if ('roll' in step) {
      throw new TestCodeError(
        `a secret's roll (${step.roll} to ${step.as}) cannot be written as a test yet: choose the exchanges before or after it`,
      )
    } else {
      const response = `response${++calls}`
      lines.push('', ...callLines(step, response, bound, options))
      if (lines.some((line) => line.includes('${now'))) usesNow = true
      lines.push(...answerLines(step, response, sources.get(written as CallStep), bound))
      const seen = received.get(step.call) ?? { statuses: new Set(), times: 0 }
      seen.statuses.add(step.expect.status)
      seen.times += 1
      received.set(step.call, seen)
    }
  }
  // Mints go through auth.create too: its count is at least the calls written.
  const minted = steps.some((step) => 'mint' in step)
  const checks = [...received].map(([endpoint, { statuses, times }]) => {
    const count = endpoint === 'auth.create' && minted ? `atLeast: ${times}` : `times: ${times}`
    const status = statuses.size === 1 ? `status: ${[...statuses][0]}, ` : ''
    return `expect(service).toHaveReceived(${quote(endpoint)}, { ${status}${count} })`
  })
  const body = [...(usesNow ? ['const now = await service.now()'] : []), ...lines, '', ...checks]
  const code = [
    "import { expect, it } from 'vitest'",
    "import { useService } from 'service-playground/vitest'",
    '',
    `const service = useService({ baseUrl: ${quote(options.baseUrl)}, serviceName: ${quote(options.serviceName)} })`,
    '',
    `it(${quote(options.name)}, async () => {`,
    ...body
      .map((line) => (line === '' ? '' : `  ${line}`))
      .filter((line, i, all) => line !== '' || all[i - 1] !== ''),
    '})',
    '',
  ].join('\n')
  checkNoSecrets(code, exchanges, options)
  return code
}

/** The last guard: a key or token of the session in the code is an error, never a test. */
function checkNoSecrets(
  code: string,
  exchanges: readonly ExchangeRecord[],
  options: TestCodeOptions,
): void {
  const secrets = (options.secrets ?? []).map((s) => (typeof s === 'string' ? s : s.key))
  for (const record of exchanges) {
    // A token the service knew, or shaped as one; a made-up one it refused is kept as sent.
    const token = tokenOf(record)
    if (token && (record.trace.credential?.secretId || TOKEN_SHAPE.test(token))) secrets.push(token)
    const cursor = headerOf(record.response.headers, 'x-cursor')
    if (cursor) secrets.push(cursor)
  }
  if (secrets.some((secret) => secret.length >= 8 && code.includes(secret))) {
    throw new TestCodeError(
      'the test would copy a token or key of this session (inside a text the recorder cannot bind); a test never holds one',
    )
  }
}

/** The `fetch` of one call step, as it is sent: method, URL, headers, body. */
function callLines(
  step: CallStep,
  response: string,
  bound: Map<string, unknown>,
  options: TestCodeOptions,
): string[] {
  const target = { baseUrl: options.baseUrl, serviceName: options.serviceName } as const
  const request = buildRequest(target as never, step, step.format ?? 'tuples', bound)
  const headers = Object.entries(request.headers).map(
    ([name, value]) => `${/^[a-z]+$/.test(name) ? name : quote(name)}: ${template(value, false)}`,
  )
  const init = [`method: ${quote(request.method)}`, `headers: { ${headers.join(', ')} }`]
  if (request.body !== undefined) {
    const bytes = fromBase64(request.body)
    if (step.format === 'msgpack') {
      if (bytes.includes(1)) {
        throw new TestCodeError(
          `${step.call} sends a token inside a MessagePack body, which a test cannot write as text: choose it in tuples or JSON`,
        )
      }
      init.push(`body: Uint8Array.from(atob(${quote(request.body)}), (c) => c.charCodeAt(0))`)
    } else {
      const json = /json/.test(request.headers['content-type'] ?? '')
      init.push(`body: ${template(new TextDecoder().decode(bytes), json)}`)
    }
  }
  return [
    `const ${response} = await fetch(${template(request.url, false)}, {`,
    ...init.map((line) => `  ${line},`),
    '})',
  ]
}

/** Whether a value holds a bound role (`$auth1`): it varies from run to run. */
const holdsRole = (value: unknown, bound: Map<string, unknown>): boolean =>
  typeof value === 'string'
    ? value.startsWith('$') && bound.has(value.slice(1))
    : Array.isArray(value)
      ? value.some((item) => holdsRole(item, bound))
      : value !== null &&
        typeof value === 'object' &&
        Object.values(value).some((item) => holdsRole(item, bound))

/** The status asserted, the answer asserted where it does not vary, the value it binds read. */
function answerLines(
  step: CallStep,
  response: string,
  source: ExchangeRecord | undefined,
  bound: Map<string, unknown>,
): string[] {
  const lines = [`expect(${response}.status).toBe(${step.expect.status})`]
  const { bind, expect: wanted } = step
  if (bind) {
    if (bind.from.startsWith('header:')) {
      lines.push(`const ${bind.as} = ${response}.headers.get(${quote(bind.from.slice(7))}) ?? ''`)
    } else {
      const type = source?.response.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1]
      const read = /text\/plain/.test(type ?? '')
        ? `await ${response}.text()`
        : /vnd\.[^+]+\+json/.test(type ?? '')
          ? `((await ${response}.json()) as [string, string][])[0]![1]`
          : /json/.test(type ?? '')
            ? `(await ${response}.json()) as string`
            : undefined
      if (!read) {
        throw new TestCodeError(
          `the token ${step.call} answered is in ${type ?? 'no content type'}, which a test cannot read back yet: choose it in tuples, JSON or text`,
        )
      }
      lines.push(`const ${bind.as} = ${read}`)
    }
    bound.set(bind.as, `${MARK}${bind.as}${MARK}`)
    return lines
  }
  const fixed =
    (wanted.result !== undefined || wanted.message !== undefined) &&
    wanted.matchers === undefined &&
    !holdsRole(wanted.result, bound)
  const body = source?.response.body
  if (fixed && body && body.encoding === 'text' && !body.truncated) {
    lines.push(`expect(await ${response}.text()).toBe(${quote(body.data)})`)
  }
  return lines
}
