/**
 * `serve --upstream` over the wire, as a user runs it: a `serve` process in front of an
 * upstream that is a second `serve` with a changed rule (an ability's bucket limit no longer
 * holds), behind a small proxy that plays what the real service does besides (a 429 with
 * `retry-after`, an answer that varies from one asking to the next). A client's session through
 * it gets the upstream's answers byte for byte; the report names exactly the exchanges the
 * changed rule touches; the 429 is passed on and not counted; each difference replays with
 * `verify` as a failing test; no token or secret reaches any output. Then `conformance
 * --shadow` and `verify --shadow` over HTTP.
 */
import { encode } from '@msgpack/msgpack'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { main as commands } from '../cli/conformance/commands'
import type * as Abilities from '../engine/auth/abilities'
import { schemaError } from '../testing/published-schemas'
import { run, shown } from '../testing/run-command'
import { listening, ROOT, serve, stopAll, type Started } from '../testing/serve-process'

const SECRET = 'sk_Wb5Nq1Kp8Ty3Gs6Mz0Rf2Xh'
const CONTROL = 'upstream-control-token-0123456789'
const scratch = mkdtempSync(join(tmpdir(), 'shadow-wire-'))
/** The upstream's secret as a user keeps it: in a file of their own, out of the command line. */
const secretFile = join(scratch, 'upstream-secret')
writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o600 })

/** What the proxy answered for each request the client marked (`x-test-id`), the first time. */
const sent = new Map<string, { status: number; headers: Array<[string, string]>; body: Buffer }>()
let proxy: Server
let proxyUrl: string
let upstream: { stop(): Promise<number> }
/** The next request to this path is answered 429 by the proxy, as a rate-limited service does. */
let limitNext: string | undefined
let noise = 0

beforeAll(async () => {
  // The upstream: serve, in this process, with the changed rule.
  vi.resetModules()
  vi.doMock('../engine/auth/abilities', async (original) => {
    const real = await original<typeof Abilities>()
    return { ...real, grantingTarget: real.granting }
  })
  const cli = await import('../cli/serve/serve-cli')
  const quiet = vi.spyOn(console, 'log').mockImplementation(() => undefined)
  try {
    const running = await cli.start(
      cli.configure([
        '--port',
        '0',
        '--service-name',
        'proc',
        '--secret',
        SECRET,
        '--control-token',
        CONTROL,
      ]),
    )
    upstream = running
    proxyUrl = await startProxy(running.url)
  } finally {
    quiet.mockRestore()
    vi.doUnmock('../engine/auth/abilities')
    vi.resetModules()
  }
}, 60_000)

afterAll(async () => {
  await stopAll()
  proxy?.close()
  await upstream?.stop()
  rmSync(scratch, { recursive: true, force: true })
})

/** The small proxy in front of the upstream: a 429 when told, a varying answer when asked. */
function startProxy(target: string): Promise<string> {
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', async () => {
      const reply = (status: number, headers: Array<[string, string]>, body: Buffer) => {
        const id = req.headers['x-test-id']
        if (typeof id === 'string' && !sent.has(id)) sent.set(id, { status, headers, body })
        res.writeHead(status, headers.flat())
        res.end(body)
      }
      if (limitNext !== undefined && req.url?.startsWith(limitNext)) {
        limitNext = undefined
        return reply(
          429,
          [
            ['Retry-After', '1'],
            ['Content-Type', 'text/plain; charset=utf-8'],
          ],
          Buffer.from('rate limited'),
        )
      }
      const headers = Object.entries(req.headers).filter(
        ([name]) => !['host', 'connection', 'content-length'].includes(name),
      ) as Array<[string, string]>
      const answer = await fetch(`${target}${req.url}`, {
        method: req.method!,
        headers,
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
      })
      let body = Buffer.from(await answer.arrayBuffer())
      const kept = [...answer.headers].filter(
        ([name]) => !['connection', 'keep-alive', 'content-length', 'date'].includes(name),
      )
      // A service whose answer varies from one asking to the next, as a time would.
      if (req.headers['x-test-noise']) body = Buffer.from(JSON.stringify(`now ${++noise}`))
      // A paid tier's limit: the shadow may ask again within half of it.
      const limit: [string, string] = ['X-Rate-Limit', '100;window=60']
      const rest = kept.filter(([name]) => name !== 'x-rate-limit')
      reply(answer.status, [...rest, limit, ['X-Served-By', 'the upstream']], body)
    })
  })
  return new Promise((resolve) =>
    proxy.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(proxy.address() as AddressInfo).port}`),
    ),
  )
}

/** What a client received, to hold against what the upstream sent. */
interface Received {
  id: string
  status: number
  headers: Headers
  body: Buffer
}

describe('serve --upstream', () => {
  let shadow: Started
  let shadowUrl: string
  const report = join(scratch, 'report')
  const received: Received[] = []
  const tokens: string[] = [SECRET]
  let n = 0

  async function send(
    path: string,
    token: string,
    init: { body?: string | Uint8Array<ArrayBuffer>; headers?: Record<string, string> } = {},
  ) {
    const id = String(++n)
    const response = await fetch(`${shadowUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'x-test-id': id, ...init.headers },
      ...(init.body === undefined ? {} : { body: init.body }),
    })
    const got = {
      id,
      status: response.status,
      headers: response.headers,
      body: Buffer.from(await response.arrayBuffer()),
    }
    received.push(got)
    return got
  }
  const tuples = (
    path: string,
    token: string,
    body: unknown[],
    headers: Record<string, string> = {},
  ) =>
    send(path, token, {
      body: JSON.stringify(body),
      headers: {
        'content-type': 'application/vnd.proc+json',
        accept: 'application/json',
        ...headers,
      },
    })

  beforeAll(async () => {
    shadow = serve([
      '--port',
      '0',
      '--upstream',
      proxyUrl,
      '--upstream-secret-file',
      secretFile,
      '--service-name',
      'proc',
      '--shadow-report',
      report,
    ])
    shadowUrl = await listening(shadow)
  }, 60_000)

  it('gives the client the upstream’s answers, byte for byte, and reports exactly what the changed rule touches', async () => {
    expect((await send('/core/ping', SECRET)).body.toString()).toBe('true') // 1
    const token = (
      await send('/auth/create', SECRET, {
        body: JSON.stringify([['$$', 'abilities', ['keyv?bucket=notes']]]),
        headers: { 'content-type': 'application/vnd.proc+json', accept: 'text/plain' },
      })
    ).body.toString() // 2
    tokens.push(token)
    await tuples('/keyv/set', token, [
      ['$$', 'bucket', 'notes'],
      ['$$', 'key', 'a'],
      ['$$', 'value', 1],
    ]) // 3
    await tuples('/keyv/set', token, [
      ['$$', 'bucket', 'notes'],
      ['$$', 'key', 'b'],
      ['$$', 'value', 2],
    ]) // 4
    expect(
      (
        await send('/keyv/get?bucket=notes&key=a', token, {
          headers: { accept: 'application/json' },
        })
      ).body.toString(),
    ).toBe('1') // 5
    // The changed rule: outside its bucket, the upstream lets the authorization in.
    expect(
      (
        await tuples('/keyv/get', token, [
          ['$$', 'bucket', 'other'],
          ['>>', 'a'],
        ])
      ).status,
    ).toBe(200) // 6
    expect(
      (
        await tuples('/keyv/set', token, [
          ['$$', 'bucket', 'other'],
          ['$$', 'key', 'b'],
          ['$$', 'value', 3],
        ])
      ).status,
    ).toBe(200) // 7
    expect(
      (
        await tuples('/keyv/get', SECRET, [
          ['$$', 'bucket', 'other'],
          ['>>', 'b'],
        ])
      ).body.toString(),
    ).toBe('3') // 8
    // Paging: the upstream's cursor, replayed to the engine as its twin.
    const first = await tuples('/keyv/scan', token, [
      ['$$', 'bucket', 'notes'],
      ['$$', 'count', 1],
    ]) // 9
    const cursor = first.headers.get('x-cursor')!
    expect(cursor).not.toBe('')
    tokens.push(cursor)
    expect(
      JSON.parse(
        (
          await tuples('/keyv/scan', token, [
            ['$$', 'bucket', 'notes'],
            ['$$', 'count', 1],
            ['$$', 'cursor', cursor],
          ])
        ).body.toString(),
      ),
    ).toEqual(['b']) // 10
    await tuples('/core/echo', SECRET, [['>>', 'now']], { 'x-test-noise': '1' }) // 11
    limitNext = '/type/string/reverse'
    const limited = await send('/type/string/reverse', SECRET, {
      body: 'abc',
      headers: { 'content-type': 'text/plain' },
    }) // 12
    expect([limited.status, limited.headers.get('retry-after'), limited.body.toString()]).toEqual([
      429,
      '1',
      'rate limited',
    ])
    const packed = await send('/type/string/reverse', token, {
      body: encode([['>>', 'abc']]),
      headers: {
        'content-type': 'application/vnd.proc+msgpack',
        accept: 'application/vnd.proc+msgpack',
      },
    }) // 13
    expect(packed.status).toBe(401)

    // Every answer as the upstream gave it: status, headers, body.
    for (const got of received) {
      const upstreamSent = sent.get(got.id)!
      expect([got.id, got.status, got.body.equals(upstreamSent.body)]).toEqual([
        got.id,
        upstreamSent.status,
        true,
      ])
      for (const [name, value] of upstreamSent.headers)
        expect([got.id, name, got.headers.get(name)]).toEqual([got.id, name, value])
    }

    shadow.child.kill('SIGTERM')
    await shadow.ended
    const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as {
      exchanges: Array<{ label: string; outcome: string; askedAgain: string; contract?: string }>
      totals: Record<string, number>
      notCompared: Record<string, number>
    }
    expect(json.exchanges.map((e) => [e.label, e.outcome, e.askedAgain])).toEqual([
      ['#6', 'differs', 'same answer'],
      ['#7', 'differs', 'not asked: it writes'],
      ['#8', 'follows', 'not asked'],
      ['#11', 'noise', 'a different answer'],
    ])
    expect(schemaError('shadow-report', json)).toBeUndefined()
    expect(json.notCompared).toEqual({ 'rate limited by the upstream (429)': 1 })
    expect([json.totals.agreed, json.totals.differs]).toEqual([8, 2])
    const stdout = shadow.output.stdout
    expect(stdout).toMatch(
      /^shadow: #6 keyv\.get \[tuples\] DIFFERS: status: upstream 200, engine 401 \("authorization does not have the ability to access proc `keyv\.get'"\) \(contract: .*006-keyv\.get\.json\)$/m,
    )
    expect(stdout).toMatch(
      /^shadow: #12 type\.string\.reverse: the upstream answered 429 \(retry-after 1\), passed to the client as it came, not compared$/m,
    )
    expect(stdout).toMatch(
      /^shadow: 13 exchanges, 8 agreed, 2 differ, 0 upstream state unknown to the engine, 1 noise, 1 follow from an earlier difference, 1 not compared; report: /m,
    )

    // No token, secret or cursor in anything the shadow printed or wrote.
    const contracts = readdirSync(join(report, 'contracts')).map((name) =>
      join(report, 'contracts', name),
    )
    expect(contracts.map((file) => file.slice(report.length))).toEqual([
      '/contracts/006-keyv.get.json',
      '/contracts/007-keyv.set.json',
    ])
    for (const file of contracts) {
      expect(schemaError('cases', JSON.parse(readFileSync(file, 'utf8'))), file).toBeUndefined()
    }
    const output = [
      stdout,
      shadow.output.stderr,
      readFileSync(join(report, 'report.json'), 'utf8'),
      readFileSync(join(report, 'report.txt'), 'utf8'),
      ...contracts.map((file) => readFileSync(file, 'utf8')),
    ].join('\n')
    for (const value of tokens) expect(output.includes(value)).toBe(false)
    expect(output.match(/[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{43}/g) ?? []).toEqual([])
    expect(output.match(/[A-Za-z0-9_-]{24,}/g) ?? []).toEqual([])

    // A difference replays with verify: a failing test against the engine.
    const replayed = await run(
      'npm',
      [
        'run',
        '--silent',
        'conformance',
        '--',
        'verify',
        contracts[0]!,
        '--target',
        'handle',
        '--junit',
        join(scratch, 'junit.xml'),
      ],
      ROOT,
    )
    expect(replayed.code, shown(replayed)).toBe(1)
    expect(replayed.stdout).toContain(
      '    2 DIFFERS keyv.get\n        expected status 200, got 401 ("authorization does not have the ability to access proc `keyv.get\'")',
    )
  }, 120_000)
})

describe('conformance --shadow and verify --shadow, over HTTP', () => {
  const out: string[] = []
  const context = {
    root: ROOT,
    out: (text: string) => void out.push(text),
    err: (text: string) => void out.push(text),
  }

  it('conformance --shadow names the cases the changed rule touches, and exits 1', async () => {
    out.length = 0
    const dir = join(scratch, 'conformance')
    const code = await commands(
      [
        'conformance',
        '--shadow',
        proxyUrl,
        '--control-token',
        CONTROL,
        '--filter',
        'limit',
        '--shadow-report',
        dir,
        '--junit',
        join(scratch, 'c.xml'),
      ],
      context,
    )
    const text = out.join('\n')
    expect(code, text).toBe(1)
    const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      exchanges: Array<{ label: string }>
    }
    expect(json.exchanges.map((e) => e.label.replace(/ \(.*\)$/, ''))).toEqual([
      '04-keyv.json › a bucket limit keeps other buckets out [tuples] › step 2',
      '04-keyv.json › a bucket limit keeps other buckets out [msgpack] › step 2',
      '04-keyv.json › a prefix limit keeps other keys out [tuples] › step 2',
      '04-keyv.json › a prefix limit keeps other keys out [msgpack] › step 2',
      '04-keyv.json › a limited scan must name a prefix inside the limit [tuples] › step 2',
      '04-keyv.json › a limited scan must name a prefix inside the limit [msgpack] › step 2',
    ])
    expect(text).toContain('shadow parity report: upstream')
    expect(text).not.toContain(CONTROL)
  }, 60_000)

  it('verify --shadow with only the upstream’s secret waits out a 429 and sends again', async () => {
    out.length = 0
    const dir = join(scratch, 'verify')
    const contract = join(scratch, 'reverse.json')
    writeFileSync(
      contract,
      JSON.stringify({
        description: 'a string reversed',
        cases: [
          {
            name: 'reverses',
            steps: [
              { call: 'type.string.reverse', input: 'abc', expect: { status: 200, result: 'cba' } },
            ],
          },
        ],
      }),
    )
    limitNext = '/type/string/reverse'
    const code = await commands(
      [
        'verify',
        contract,
        '--shadow',
        proxyUrl,
        '--upstream-secret-file',
        secretFile,
        '--service-name',
        'proc',
        '--shadow-report',
        dir,
        '--junit',
        join(scratch, 'v.xml'),
      ],
      context,
    )
    const text = out.join('\n')
    expect(code, text).toBe(0)
    expect(text).toContain('1 passed, 0 failed, 0 skipped, 1 contract')
    const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
      totals: Record<string, number>
      notCompared: Record<string, number>
    }
    expect([json.totals.agreed, json.totals.differs]).toEqual([1, 0])
    expect(json.notCompared).toEqual({ 'rate limited by the upstream (429)': 1 })
    expect(text).not.toContain(SECRET)
  }, 60_000)
})
