// Exchanges as a test file that replays them with the kit: the playground's "Copy as test".
import type { ExchangeRecord } from '../../engine'
import { fromBase64 } from '../../client/wire'
import { buildRequest, placeServiceName } from '../build'
import type { CallStep, Step } from '../cases'
import { headerOf, tokenOf } from '../../client/exchange'
import { TOKEN_SHAPE } from './answer'
import { recordContract } from './record'
import type { SecretInfo } from './record-context'
import { shapeTest, type TestRunner, type TestTarget } from './test-shapes'

export interface TestCodeOptions {
  /** The test's title. */
  name: string
  serviceName: string
  baseUrl: string
  /** The account's secrets now: their keys are never written, only used to name tokens. */
  secrets?: ReadonlyArray<string | SecretInfo>
  /** The runner the file is for: `vitest` (the default), `jest` or `playwright`. */
  runner?: TestRunner
  /** Where its service runs: `in-process` (the default) or on a running `serve`. */
  target?: TestTarget
  /**
   * The last exchange of the account's starting state: those up to it (by `id`) are made again
   * before the test (its `beforeEach`), those after it are the test's own.
   */
  setupUntil?: number
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
function template(text: string, json: boolean, now = 'now'): string {
  const escaped = text.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${')
  return `\`${escaped
    .replace(
      json ? nowInJson : nowInText,
      (_, offset: string) => `\${${now} ${offset[0]} ${offset.slice(1)}}`,
    )
    .replace(marked, (_, role: string) => `\${${role}}`)
    .replace(markedInUrl, (_, role: string) => `\${${role}}`)}\``
}

const quote = (value: unknown) => JSON.stringify(value)

/** The variable a role is held in: `secret` is the service's own. */
const variable = (role: string) => (role === 'secret' ? 'service.secret' : role)

/** What the steps written so far have bound and counted. */
interface Writing {
  options: TestCodeOptions
  sources: Map<CallStep, ExchangeRecord>
  bound: Map<string, unknown>
  received: Map<string, { statuses: Set<number>; times: number }>
  calls: number
  /** Roles bound in the starting state, read by the test: declared in the file. */
  shared: string[]
}

/**
 * A test file that replays `exchanges` with the kit, for Vitest (the default), Jest or
 * Playwright, its service in process (`useService` with the base URL and service name given)
 * or an account on a running `serve` (named by `SERVICE_PLAYGROUND_URL` and
 * `SERVICE_PLAYGROUND_CONTROL_TOKEN`): the exchanges up to `setupUntil` made again before the
 * test, as the account's starting state; each call through `fetch` at the service's base URL
 * as it was sent, its status asserted, its answer where it does not vary from run to run, and
 * `toHaveReceived` for each endpoint at the end. Tokens are never pasted: they are made in the
 * test (`service.authorize`, `service.createSecret`, `service.rollSecret`) or read from the
 * answers that gave them, as a contract binds them (the same recorder). Throws `RecordError`
 * when nothing can be replayed, `TestCodeError` for what a test cannot yet make again (a token
 * inside MessagePack).
 */
export function testCode(exchanges: readonly ExchangeRecord[], options: TestCodeOptions): string {
  const sources = new Map<CallStep, ExchangeRecord>()
  const recorded = recordContract(exchanges, {
    name: options.name,
    serviceName: options.serviceName,
    baseUrl: options.baseUrl,
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(options.setupUntil === undefined ? {} : { setupUntil: options.setupUntil }),
    onCall: (step, record) => sources.set(step, record),
  })
  const [one] = recorded.cases
  const writing: Writing = {
    options,
    sources,
    bound: new Map<string, unknown>([['secret', `${MARK}service.secret${MARK}`]]),
    received: new Map(),
    calls: 0,
    shared: [],
  }
  const fixture = (one!.setup ?? []).flatMap((step) => stepLines(step, writing, true))
  const body = one!.steps.flatMap((step) => stepLines(step, writing, false))
  // Mints go through auth.create too: its count is at least the calls written.
  const minted = [...(one!.setup ?? []), ...one!.steps].some((step) => 'mint' in step)
  const checks = [...writing.received].map(([endpoint, { statuses, times }]) => {
    const count = endpoint === 'auth.create' && minted ? `atLeast: ${times}` : `times: ${times}`
    const status = statuses.size === 1 ? `status: ${[...statuses][0]}, ` : ''
    return `await expect(service).toHaveReceived(${quote(endpoint)}, { ${status}${count} })`
  })
  const code = shapeTest(
    {
      name: options.name,
      serviceName: options.serviceName,
      baseUrl: options.baseUrl,
      shared: writing.shared,
      fixture,
      body: [...body, '', ...checks],
    },
    options.runner ?? 'vitest',
    options.target ?? 'in-process',
  )
  checkNoSecrets(code, exchanges, options)
  return code
}

/** The lines of one step; in the starting state, the roles it binds are the file's. */
function stepLines(written: Step, writing: Writing, inFixture: boolean): string[] {
  const { options, bound } = writing
  const step = placeServiceName(written, options.serviceName)
  /** `const name = ` in the test; `name = ` in the starting state, declared in the file. */
  const bind = (name: string) => {
    bound.set(name, `${MARK}${name}${MARK}`)
    if (!inFixture) return `const ${name} =`
    writing.shared.push(name)
    return `${name} =`
  }
  if ('secret' in step) return [`${bind(step.secret)} (await service.createSecret()).key`]
  if ('advance' in step) return [`await service.advanceClock(${step.advance})`]
  if ('mint' in step) {
    const settings = [
      ...(step.ttl === undefined ? [] : [`ttl: ${step.ttl}`]),
      ...(step.insecure ? ['insecure: true'] : []),
      ...(step.from === 'secret' ? [] : [`token: ${variable(step.from)}`]),
    ]
    const extra = settings.length ? `, { ${settings.join(', ')} }` : ''
    return [`${bind(step.mint)} await service.authorize(${quote(step.abilities)}${extra})`]
  }
  if ('roll' in step) {
    // The secret rolled is found by its key: its id is the account's own.
    const at = step.in === undefined ? '' : `, (await service.now()) + ${step.in}`
    const rolling = `(await service.listSecrets()).filter((s) => s.key === ${variable(step.roll)})[0].id`
    return [`${bind(step.as)} (await service.rollSecret(${rolling}${at})).key`]
  }
  const response = `response${++writing.calls}`
  const lines = ['', ...callLines(step, response, writing)]
  lines.push(
    ...answerLines(step, response, writing.sources.get(written as CallStep), writing, bind),
  )
  const seen = writing.received.get(step.call) ?? { statuses: new Set(), times: 0 }
  seen.statuses.add(step.expect.status)
  seen.times += 1
  writing.received.set(step.call, seen)
  return lines
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

/** The `fetch` of one call step, as it is sent (method, URL, headers, body), at the service's URL. */
function callLines(step: CallStep, response: string, writing: Writing): string[] {
  const { options, bound } = writing
  const target = { baseUrl: options.baseUrl, serviceName: options.serviceName } as const
  const request = buildRequest(target as never, step, step.format ?? 'tuples', bound)
  // The clock as the call is made, where its body says `$now±N`.
  const now = `now${writing.calls}`
  const url = request.url.startsWith(options.baseUrl)
    ? `${MARK}service.baseUrl${MARK}${request.url.slice(options.baseUrl.length)}`
    : request.url
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
      init.push(`body: ${template(new TextDecoder().decode(bytes), json, now)}`)
    }
  }
  const call = [
    `const ${response} = await fetch(${template(url, false)}, {`,
    ...init.map((line) => `  ${line},`),
    '})',
  ]
  return call.some((line) => line.includes(`\${${now} `))
    ? [`const ${now} = await service.now()`, ...call]
    : call
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
  writing: Writing,
  bind: (name: string) => string,
): string[] {
  const lines = [`expect(${response}.status).toBe(${step.expect.status})`]
  const { bind: binds, expect: wanted } = step
  if (binds) {
    if (binds.from.startsWith('header:')) {
      lines.push(`${bind(binds.as)} ${response}.headers.get(${quote(binds.from.slice(7))}) ?? ''`)
    } else {
      const type = source?.response.headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1]
      // Plain JavaScript, and TypeScript too: `json()` is `any`.
      const read = /text\/plain/.test(type ?? '')
        ? `await ${response}.text()`
        : /vnd\.[^+]+\+json/.test(type ?? '')
          ? `(await ${response}.json())[0][1]`
          : /json/.test(type ?? '')
            ? `await ${response}.json()`
            : undefined
      if (!read) {
        throw new TestCodeError(
          `the token ${step.call} answered is in ${type ?? 'no content type'}, which a test cannot read back yet: choose it in tuples, JSON or text`,
        )
      }
      lines.push(`${bind(binds.as)} ${read}`)
    }
    return lines
  }
  const fixed =
    (wanted.result !== undefined || wanted.message !== undefined) &&
    wanted.matchers === undefined &&
    !holdsRole(wanted.result, writing.bound)
  const body = source?.response.body
  if (fixed && body && body.encoding === 'text' && !body.truncated) {
    lines.push(`expect(await ${response}.text()).toBe(${quote(body.data)})`)
  }
  return lines
}
