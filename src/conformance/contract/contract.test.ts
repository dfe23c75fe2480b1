import { fileURLToPath } from 'node:url'
import { format } from 'prettier'
import { beforeAll, describe, expect, it } from 'vitest'
import { decode, encode } from '@msgpack/msgpack'
import {
  createEngine,
  createManualClock,
  createSystemClock,
  type Clock,
  type ExchangeRecord,
} from '../../engine'
import { createMemoryStore } from '../../storage'
import { createHarness, type Harness } from '../../testing/engine-harness'
import { parseCaseFile, type CallStep, type Case, type CaseFile, type Step } from '../cases'
import type { CaseResult, Target } from '../run'
import { stepReport } from '../report'
import { baseUrlTarget, handleTarget, mswTarget, serveTarget } from '../targets'
import { addToContract, formatContract } from './format'
import { recordContract } from './record'
import { FORGED_TOKEN, RecordError } from './record-context'
import { verifyContracts } from './verify'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const text = (h: Harness, path: string, body?: unknown) =>
  h.control(path, body).then((answer) => answer.body as Record<string, unknown>)

interface Recording {
  file: CaseFile
  exchanges: ExchangeRecord[]
  /** Every secret key, token and cursor the calls used or were given. */
  volatile: string[]
}

/** Runs `scenario` against a fresh engine with its journal on and records what it did. */
async function record(
  name: string,
  scenario: (h: Harness, volatile: string[]) => Promise<void>,
  clock: Clock = createManualClock(),
): Promise<Recording> {
  const h = await createHarness({ serviceName: 'service', exchangeLog: 500, clock })
  const volatile = [h.secret.key]
  await scenario(h, volatile)
  const { exchanges } = (await text(h, 'exchanges')) as unknown as { exchanges: ExchangeRecord[] }
  const secrets = await h.engine.account.listSecrets()
  volatile.push(...secrets.map((s) => s.key))
  for (const exchange of exchanges) {
    const authorization = exchange.request.headers.find(([k]) => k === 'authorization')?.[1]
    if (authorization) volatile.push(authorization.replace(/^bearer /i, ''))
    const cursor = exchange.response.headers.find(([k]) => k === 'x-cursor')?.[1]
    if (cursor) volatile.push(cursor)
  }
  const file = recordContract(exchanges, {
    name,
    serviceName: h.serviceName,
    baseUrl: h.baseUrl,
    secrets,
  })
  return { file, exchanges, volatile }
}

/** A page that keeps notes with a limited authorization: paging, refusals, expiry. */
const keepsNotes = (bucket: string) => async (h: Harness, volatile: string[]) => {
  const now = (await text(h, 'clock')).now as number
  const token = await h.authorize({
    abilities: [`keyv?bucket=${bucket}`],
    expiry: now + 600,
    ttl: 300,
  })
  volatile.push(token)
  for (const [key, title] of [
    ['n1', 'first'],
    ['n2', 'second'],
  ]) {
    const set = [
      ['$$', 'bucket', bucket],
      ['$$', 'key', key],
      ['$$', 'value', { title }],
    ]
    expect((await h.tuples('keyv.set', set, { token })).status).toBe(200)
  }
  const page = await h.call('keyv.scan', {
    token,
    query: { bucket, count: '1' },
    accept: 'application/json',
  })
  const cursor = page.headers.get('x-cursor')!
  expect([page.json(), cursor.length > 0]).toEqual([['n1'], true])
  const next = await h.call('keyv.scan', {
    token,
    query: { bucket, count: '1', cursor },
    accept: 'application/json',
  })
  expect([next.json(), next.headers.get('x-cursor')]).toEqual([['n2'], ''])
  const get = (b: string) =>
    h.tuples(
      'keyv.get',
      [
        ['$$', 'bucket', b],
        ['$$', 'key', 'n1'],
      ],
      { token },
    )
  expect((await get(bucket)).status).toBe(200)
  expect((await get('elsewhere')).status).toBe(401)
  const echo = await h.call('core.echo', { token, body: 'hi', contentType: 'text/plain' })
  expect(echo.status).toBe(401)
  await h.control('clock', { advance: 301 })
  expect((await get(bucket)).text).toContain('authorization is expired')
}

/**
 * Tokens minted before the journal saw them, JSON sent as text, the clock moved past one
 * token's life, then the secret rolled: the old one refused, the new one let in, the other
 * token dead with its secret.
 */
async function rollsTheSecret(h: Harness, volatile: string[]) {
  const minted = await h.authorize({ abilities: ['type.string'] })
  const brief = await h.authorize({ abilities: ['core.ping'], ttl: 30 })
  volatile.push(minted, brief)
  await h.control('exchanges/clear', {})
  const reversed = await h.call('type.string.reverse', {
    token: minted,
    body: 'abc',
    contentType: 'text/plain;charset=UTF-8',
  })
  expect(reversed.text).toBe('cba')
  expect((await h.call('core.echo', { body: '{"a":1}', contentType: 'text/plain' })).status).toBe(
    200,
  )
  await h.control('clock', { advance: 31 })
  expect((await h.call('core.ping', { token: brief })).text).toBe('authorization is expired')
  const [secret] = (await h.control('secrets')).body as Array<{ id: string }>
  const next = (await text(h, `secrets/${secret!.id}/roll`, {})).key as string
  expect((await h.call('core.ping', { token: h.secret.key })).status).toBe(401)
  expect((await h.call('core.ping', { token: next, accept: 'application/json' })).text).toBe('true')
  expect((await h.call('type.string.reverse', { token: minted, body: 'abc' })).status).toBe(401)
}

/** A stored procedure in the service's own package, then called. */
async function storesAProcedure(h: Harness) {
  const proc = ['{}', ['()', 'type.string.capitalize']]
  const created = await h.tuples('service.create', [
    ['$$', 'name', 'greet'],
    ['$$', 'proc', proc],
  ])
  expect(created.status).toBe(200)
  const called = await h.tuples('lib.greet', [['>>', 'ada']], { accept: 'application/json' })
  expect(called.json()).toBe('Ada')
}

/** Every body format, and requests the service refuses for their form. */
async function speaksEveryFormat(h: Harness) {
  const msgpack = `application/vnd.${h.serviceName}+msgpack`
  const packed = await h.send(
    new Request(`${h.baseUrl}/type/string/upcase`, {
      method: 'POST',
      headers: {
        authorization: `bearer ${h.secret.key}`,
        'content-type': msgpack,
        accept: msgpack,
      },
      body: encode([['>>', 'abc']]),
    }),
  )
  expect(decode(new Uint8Array(await packed.arrayBuffer()))).toEqual([['<<', 'ABC']])
  const json = { contentType: 'application/json', accept: 'application/json' }
  const truncated = await h.call('type.string.truncate', {
    body: '"hello"',
    query: { length: '2' },
    ...json,
  })
  expect(truncated.json()).toBe('he')
  expect((await h.call('core.ping', { accept: 'application/json' })).json()).toBe(true)
  expect((await h.call('core.echo', { body: '{', ...json })).status).toBe(400)
  expect((await h.call('core.ping', { method: 'GET' })).status).toBe(405)
  expect((await h.call('core.echo', { body: '<x/>', contentType: 'application/xml' })).status).toBe(
    415,
  )
  const appended = await h.tuples('type.string.append', [
    ['$$', 'value', '!'],
    ['>>', 'hi'],
  ])
  expect(appended.json()).toEqual([['<<', 'hi!']])
}

const bucket = `notes-${Math.random().toString(36).slice(2, 10)}`
let recordings: Recording[]
let contracts: Case[]

beforeAll(async () => {
  recordings = [
    await record('keeps notes', keepsNotes(bucket), createSystemClock()),
    await record('rolls the secret', rollsTheSecret),
    await record('stores a procedure', storesAProcedure),
    await record('speaks every format', speaksEveryFormat),
  ]
  contracts = recordings.flatMap((r, i) => parseCaseFile(`c${i}.json`, formatContract(r.file)))
})

const calls = (c: Case) => c.steps.filter((s): s is CallStep => 'call' in s)
const outcome = (results: CaseResult[]) =>
  results.map((r) => [
    r.id,
    r.status,
    r.reason ?? '',
    r.stepResults.map((s) => [s.status, s.differences]),
  ])

describe('recording a contract', () => {
  it('never copies a token, a secret key or a cursor', () => {
    for (const { file, volatile } of recordings) {
      const written = formatContract(file)
      expect(volatile.length).toBeGreaterThan(1)
      for (const value of volatile) expect(written).not.toContain(value)
    }
  })

  it('makes each token a role: the secret, an authorization minted anew, a roll', () => {
    const [notes, rolls] = contracts as [Case, Case]
    const minted = calls(notes)[0]!
    expect(minted).toMatchObject({ call: 'auth.create', bind: { as: 'auth1', from: 'result' } })
    expect(minted.args).toMatchObject({
      abilities: [`keyv?bucket=${bucket}`],
      expiry: '$now+600',
      ttl: 300,
    })
    expect(
      calls(notes)
        .slice(1)
        .every((s) => s.token === '$auth1'),
    ).toBe(true)
    const steps: Step[] = rolls.steps
    expect(steps[0]).toEqual({ mint: 'auth1', from: 'secret', abilities: ['type.string'] })
    // Made before the clock moved past its life, so it is minted before the advance.
    const brief = steps.findIndex((s) => 'mint' in s && s.ttl === 30)
    expect(steps[brief]).toEqual({
      mint: 'auth2',
      from: 'secret',
      abilities: ['core.ping'],
      ttl: 30,
    })
    expect(steps.findIndex((s) => 'advance' in s)).toBeGreaterThan(brief)
    const roll = steps.findIndex((s) => 'roll' in s)
    expect(steps[roll]).toEqual({ roll: 'secret', as: 'rolled1' })
    expect(steps[roll + 1]).toMatchObject({ call: 'core.ping', expect: { status: 401 } })
    expect(steps[roll + 2]).toMatchObject({ call: 'core.ping', token: '$rolled1' })
  })

  it('keeps generated names as used, binds cursors, and records the clock as a step', () => {
    const [notes] = contracts as [Case]
    const buckets = calls(notes).flatMap((s) => [s.args?.bucket, s.query?.bucket].filter(Boolean))
    expect(new Set(buckets)).toEqual(new Set([bucket, 'elsewhere']))
    const [first, second] = calls(notes).filter((s) => s.call === 'keyv.scan')
    expect(first!.bind).toEqual({ as: 'cursor1', from: 'header:x-cursor' })
    expect(first!.expect.headers?.['x-cursor']).toEqual({ match: '^.+$' })
    expect(second!.query?.cursor).toBe('$cursor1')
    expect(second!.expect.headers?.['x-cursor']).toBe('')
    expect(notes.steps).toContainEqual({ advance: 301 })
    expect(notes.fresh).toBe(true)
  })

  it('writes the service name as {service}, in messages, endpoints and media types', () => {
    const [notes, , procedure] = contracts as [Case, Case, Case]
    const echo = calls(notes).find((s) => s.call === 'core.echo')!
    expect(echo.expect.message).toBe(
      "authorization does not have the ability to access {service} `core.echo'",
    )
    expect(calls(procedure)[0]!.call).toBe('{service}.create')
    expect(calls(procedure)[0]!.expect.headers?.['content-type']).toEqual({
      match: '^application/vnd\\.{service}\\+json(\\s*;.*)?$',
    })
  })

  it('keeps what each request sent, in its own format', () => {
    const formats = calls(contracts[3]!)
    expect(formats[0]).toMatchObject({
      call: 'type.string.upcase',
      format: 'msgpack',
      input: 'abc',
    })
    expect(formats[1]).toMatchObject({ format: 'json', input: 'hello', query: { length: '2' } })
    expect(formats[3]).toMatchObject({ body: '{', contentType: 'application/json' })
    expect(formats[4]).toMatchObject({
      method: 'GET',
      expect: { status: 405, headers: { allow: 'POST' } },
    })
    expect(formats[5]).toMatchObject({ body: '<x/>', contentType: 'application/xml' })
    expect(formats[6]).toMatchObject({ input: 'hi', args: { value: '!' } })
  })

  it('records the same bytes from the same calls', async () => {
    const again = await record('keeps notes', keepsNotes(bucket), createSystemClock())
    expect(formatContract(again.file)).toBe(formatContract(recordings[0]!.file))
  })

  it('writes a file the case schema accepts', () => {
    for (const { file } of recordings) {
      expect(() => parseCaseFile('x.json', formatContract(file))).not.toThrow()
    }
  })

  it('lays the file out as Prettier does', async () => {
    for (const { file } of recordings) {
      const written = formatContract(file)
      expect(await format(written, { parser: 'json', printWidth: 100 })).toBe(written)
    }
  })

  it('leaves out injected faults and strict refusals, and says which', async () => {
    const { file } = await record('retries', async (h) => {
      await h.control('faults', { status: 500, endpoint: 'core.ping' })
      expect((await h.call('core.ping')).status).toBe(500)
      expect((await h.call('core.ping')).status).toBe(200)
      await h.control('strict', { enabled: true })
      expect((await h.call('core.echo', { body: '[1]', contentType: 'text/plain' })).status).toBe(
        400,
      )
    })
    const [only] = file.cases
    expect(only!.steps.map((s) => ('call' in s ? s.call : s))).toEqual(['core.ping'])
    expect(only!.notes).toEqual([
      'exchange 1 (core.ping) left out: its answer was a fault injected through the control plane',
      'exchange 3 (core.echo) left out: strict mode refused it (verifying reports every request strict mode would refuse)',
    ])
  })

  it('sends a stand-in for a tampered token, and refuses to copy one inside a longer text', async () => {
    const tampered = await record('tampers', async (h) => {
      const token = await h.authorize({ abilities: ['core'] })
      expect((await h.call('core.ping', { token: `${token.slice(0, -2)}AA` })).status).toBe(401)
    })
    const steps = calls(tampered.file.cases[0] as unknown as Case)
    expect(steps[1]).toMatchObject({
      token: FORGED_TOKEN,
      expect: { status: 401, message: 'authorization is invalid' },
    })
    const [result] = await verifyContracts(
      handleTarget(),
      parseCaseFile('t.json', formatContract(tampered.file)),
    )
    expect(result!.status).toBe('passed')
    await expect(
      record('hides a token', async (h) => {
        const token = await h.authorize({ abilities: ['keyv'] })
        await h.tuples('keyv.set', [
          ['$$', 'key', 'k'],
          ['$$', 'value', `bearer ${token}`],
        ])
      }),
    ).rejects.toThrow(/^step 2 of "hides a token" would copy a token or cursor of this run/)
  })

  it('adds a case by name: replaced where it stands, or put in name order, whatever the order of saving', () => {
    const one = (name: string, status = 200): CaseFile => ({
      description: `from ${name}`,
      cases: [{ name, steps: [{ call: 'core.ping', expect: { status } }] }],
    })
    const saves = ['b', 'd', 'a', 'c']
    const orders = [saves, [...saves].reverse(), ['c', 'a', 'd', 'b']]
    const written = orders.map((order) =>
      formatContract(
        order.reduce<CaseFile | undefined>((file, name) => addToContract(file, one(name)), {
          description: 'notes',
          cases: [],
        })!,
      ),
    )
    expect(new Set(written).size).toBe(1)
    const file = JSON.parse(written[0]!) as CaseFile
    expect([file.description, file.cases.map((c) => c.name)]).toEqual([
      'notes',
      ['a', 'b', 'c', 'd'],
    ])
    const replaced = addToContract(
      { description: 'hand-ordered', cases: [...one('z').cases, ...one('a').cases] },
      one('z', 401),
    )
    expect(replaced.cases.map((c) => [c.name, (c.steps[0] as CallStep).expect.status])).toEqual([
      ['z', 401],
      ['a', 200],
    ])
  })

  it('says so when there is nothing to record', () => {
    expect(() =>
      recordContract([], { name: 'empty', serviceName: 'service', baseUrl: 'https://x.test' }),
    ).toThrow(RecordError)
    expect(() =>
      recordContract([], { name: 'empty', serviceName: 'service', baseUrl: 'https://x.test' }),
    ).toThrow(/nothing to record for "empty".*journal/)
  })
})

describe('verifying contracts', () => {
  const targets: Array<[string, () => Promise<Target & { close?: () => unknown }>]> = [
    ['handle', async () => handleTarget()],
    ['handle, a service named acme', async () => handleTarget({ serviceName: 'acme' })],
    ['msw setupServer', async () => mswTarget()],
    ['serve over HTTP', () => serveTarget(root)],
  ]
  for (const [name, open] of targets) {
    it(`every recorded contract passes on ${name}`, async () => {
      const target = await open()
      try {
        const results = await verifyContracts(target, contracts)
        expect(results.map((r) => [r.id, r.status, r.reason ?? ''])).toEqual(
          contracts.map((c) => [c.id, 'passed', '']),
        )
      } finally {
        await target.close?.()
      }
    }, 60_000)
  }

  it('gives the same result twice on a fresh account', async () => {
    const target = handleTarget()
    const first = outcome(await verifyContracts(target, contracts))
    expect(outcome(await verifyContracts(target, contracts))).toEqual(first)
  })

  it('reports what strict mode would refuse', async () => {
    const results = await verifyContracts(handleTarget(), contracts)
    const flagged = results.flatMap((r) => r.stepResults.filter((s) => s.strict?.length))
    expect(flagged.map((s) => [s.label, s.strict])).toEqual([
      ['core.echo', [expect.stringMatching(/^the body is JSON sent as text/)]],
    ])
  })

  it('fails a changed rule at the right contract and step, with a readable difference', async () => {
    // This engine forgets the paging header: a client that pages would stop at page one.
    const broken = handleTarget((options) => {
      const engine = createEngine({ store: createMemoryStore(), ...options })
      const handle = engine.handle
      engine.handle = async (request) => {
        const response = await handle(request)
        response.headers.delete('x-cursor')
        return response
      }
      return engine
    })
    const results = await verifyContracts(broken, contracts)
    expect(results.map((r) => r.status)).toEqual(['failed', 'passed', 'passed', 'passed'])
    const [notes] = results as [CaseResult]
    const scan = contracts[0]!.steps.findIndex((s) => 'call' in s && s.call === 'keyv.scan') + 1
    expect(notes.reason).toBe(
      `step ${scan} (keyv.scan): expected header x-cursor /^.+$/, got (absent)`,
    )
    const report = stepReport('handle', results)
    expect(report).toContain(`${String(scan).padStart(3)} DIFFERS keyv.scan`)
    expect(report).toMatch(/\| POST https:\/\/conformance\.proc\.test\/keyv\/scan\?bucket=/)
    expect(report).toContain('authorization: Bearer $auth1')
  })

  it('skips, with the reason, what needs the control plane where there is none', async () => {
    const server = await serveTarget(root)
    try {
      const secret = ((await server.control!('secrets', {})) as { key: string }).key
      const target = baseUrlTarget(server.baseUrl, { secret, serviceName: 'proc' })
      const [, rolls] = await verifyContracts(target, contracts)
      const steps = rolls!.stepResults
      const first = steps.findIndex((s) => s.status === 'skipped')
      expect(rolls!.status).toBe('skipped')
      expect(steps[first]).toMatchObject({
        label: 'advance the clock 31 s',
        reason: 'needs the account control plane, which this target does not offer',
      })
      expect(steps.slice(0, first).map((s) => s.status)).toEqual(Array(first).fill('passed'))
      for (const later of steps.slice(first + 1)) {
        expect(later.reason).toBe(`not run: step ${first + 1} ${steps[first]!.reason}`)
      }
      expect(rolls!.reason).toBe(`step ${first + 1} ${steps[first]!.reason}`)
    } finally {
      await server.close()
    }
  }, 60_000)
})
