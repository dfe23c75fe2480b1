/**
 * The shadow's core, in this process (the point is the comparison; serve-upstream.test.ts
 * holds the wire): state the upstream held before the run is labelled, not counted; what follows
 * from a difference is put down to it; noise is told apart by asking the upstream again (only
 * for calls that write nothing); the upstream's 429 is not compared; each difference is a
 * contract that fails on the engine at once; and no token or secret reaches any output.
 */
import { linkInFragment, readStepLink } from '../conformance/link/step-link'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { TOKEN_SHAPE } from '../conformance/contract/answer'
import { loadContracts } from '../conformance/contract/load'
import { verifyContracts } from '../conformance/contract/verify'
import { handleTarget } from '../conformance/targets'
import { createEngine, type Engine } from '../engine'
import type * as Abilities from '../engine/auth/abilities'
import { nodeHmac } from '../server/node-hmac'
import { createMemoryStore } from '../storage/memory-store'
import { engineUpstream } from '../testing/engine-upstream'
import { createShadow, type Shadow } from './shadow'
import type { Upstream, UpstreamAnswer } from './upstream'

const BASE = 'https://upstream.proc.test'
const VND = 'application/vnd.proc+json'
const SECRET = 'sk_Qm3Xc8Lw2Rz7Vd4Tn9Hb6J'
const scratch = mkdtempSync(join(tmpdir(), 'shadow-core-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const text = (answer: UpstreamAnswer) => new TextDecoder().decode(answer.body)
const value = (answer: UpstreamAnswer) => (JSON.parse(text(answer)) as [[string, unknown]])[0][1]

/** Calls an endpoint through the shadow with tuples, as the real clients do. */
function call(shadow: Shadow, endpoint: string, token: string, tuples: unknown[], label?: string) {
  return shadow.exchange(
    {
      method: 'POST',
      pathname: `/${endpoint.split('.').join('/')}`,
      search: '',
      headers: [
        ['Authorization', `Bearer ${token}`],
        ['Content-Type', VND],
        ['Accept', VND],
      ],
      body: new TextEncoder().encode(JSON.stringify(tuples)),
    },
    label,
  )
}

async function upstreamEngine(make = createEngine): Promise<Engine> {
  const engine = make({
    store: createMemoryStore(),
    serviceName: 'proc',
    baseUrl: BASE,
    secrets: [SECRET],
    hmac: nodeHmac,
  })
  await engine.start()
  return engine
}

/** What the shadow said and wrote, as text: the log, the report, every contract. */
async function everything(shadow: Shadow, log: string[], dir: string): Promise<string> {
  await shadow.writeReport()
  const contracts = join(dir, 'contracts')
  const files = readdirSync(dir).filter((name) => name.startsWith('report'))
  let contractFiles: string[] = []
  try {
    contractFiles = readdirSync(contracts).map((name) => join(contracts, name))
  } catch {
    // None written.
  }
  return [
    ...log,
    ...files.map((name) => readFileSync(join(dir, name), 'utf8')),
    ...contractFiles.map((file) => readFileSync(file, 'utf8')),
  ].join('\n')
}

/** No value of the run that is a token, a secret or a cursor appears in `output`. */
function expectNoTokens(shadow: Shadow, output: string, also: string[] = []) {
  const values = [...shadow.twins.values(), ...also].filter((v) => v.length >= 8)
  expect(values.length).toBeGreaterThan(0)
  for (const v of values)
    expect(output.includes(v), `a token or secret is in the output`).toBe(false)
  expect(output.match(new RegExp(TOKEN_SHAPE.source.slice(1, -1), 'g')) ?? []).toEqual([])
}

const outcomes = (shadow: Shadow) =>
  shadow.report.exchanges.map((e) => [e.label, e.outcome, e.askedAgain])

describe('the shadow, in this process', () => {
  it('labels what the upstream held before the run, and counts no difference for it', async () => {
    const upstream = await upstreamEngine()
    // Before the run: a key, a procedure and an authorization the mirror never sees made.
    const direct = (endpoint: string, tuples: unknown[]) =>
      upstream.handle(
        new Request(`${BASE}/${endpoint.split('.').join('/')}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${SECRET}`, 'content-type': VND, accept: VND },
          body: JSON.stringify(tuples),
        }),
      )
    await direct('keyv.set', [
      ['$$', 'bucket', 'notes'],
      ['$$', 'key', 'old'],
      ['$$', 'value', 'kept'],
    ])
    await direct('proc.create', [
      ['$$', 'name', 'hello'],
      ['$$', 'proc', ['{}', ['()', 'core.echo', ['>>', 'hi']]]],
    ])
    const earlier = (
      (await (await direct('auth.create', [['$$', 'abilities', ['core']]])).json()) as [
        [string, string],
      ]
    )[0][1]

    const dir = join(scratch, 'unknown')
    const log: string[] = []
    const shadow = await createShadow({
      upstream: engineUpstream(upstream),
      serviceName: 'proc',
      upstreamSecret: SECRET,
      reportDir: dir,
      log: (line) => log.push(line),
    })
    expect(
      value(
        await call(
          shadow,
          'keyv.get',
          SECRET,
          [
            ['$$', 'bucket', 'notes'],
            ['>>', 'old'],
          ],
          'get-old',
        ),
      ),
    ).toBe('kept')
    await call(shadow, 'lib.hello', SECRET, [], 'lib-hello')
    await call(shadow, 'core.ping', earlier, [], 'earlier-token')
    await call(
      shadow,
      'keyv.set',
      SECRET,
      [
        ['$$', 'bucket', 'notes'],
        ['$$', 'key', 'new'],
        ['$$', 'value', 1],
      ],
      'set-new',
    )
    await call(
      shadow,
      'keyv.get',
      SECRET,
      [
        ['$$', 'bucket', 'notes'],
        ['>>', 'new'],
      ],
      'get-new',
    )
    await call(shadow, 'keyv.scan', SECRET, [['$$', 'bucket', 'notes']], 'scan')
    await call(
      shadow,
      'keyv.get',
      SECRET,
      [
        ['$$', 'bucket', 'elsewhere'],
        ['>>', 'none'],
      ],
      'get-none',
    )
    await shadow.settled()

    expect(outcomes(shadow)).toEqual([
      ['get-old', 'unknown-state', 'not asked'],
      ['lib-hello', 'unknown-state', 'not asked'],
      ['earlier-token', 'unknown-state', 'not asked'],
      ['scan', 'unknown-state', 'not asked'],
    ])
    const [getOld, libHello, earlierToken, scan] = shadow.report.exchanges
    expect(getOld!.because).toBe("it read what the run never wrote: key `old' of bucket `notes'")
    expect(libHello!.because).toBe("it read what the run never wrote: procedure `lib.hello'")
    expect(earlierToken!.because).toMatch(/a token the engine never saw made/)
    expect(scan!.because).toBe("it read what the run never wrote: bucket `notes'")
    expect(shadow.report.differences).toBe(0)
    const { totals } = shadow.report.toJSON()
    expect([totals.agreed, totals['unknown-state'], totals.differs]).toEqual([3, 4, 0])
    const output = await everything(shadow, log, dir)
    // Not the engine's differences: no contract for them.
    expect(readdirSync(dir).sort()).toEqual(['report.json', 'report.txt'])
    expect(output).toContain('upstream state unknown to the engine')
    expectNoTokens(shadow, output, [earlier, SECRET])
    await shadow.close()
  })

  it('asks the upstream again only for what writes nothing, and tells noise from a difference', async () => {
    const real = engineUpstream(await upstreamEngine())
    let echoes = 0
    // The upstream as a stand-in for the real one: `core.echo` of "now" varies from one answer
    // to the next (a time); `type.string.upcase` always answers "changed" (a steady difference).
    const upstream: Upstream = {
      ...real,
      async send(request) {
        const answer = await real.send(request)
        const body = new TextDecoder().decode(request.body)
        const rewrite = (value: string) => ({
          ...answer,
          body: new TextEncoder().encode(JSON.stringify([['<<', value]])),
        })
        if (request.pathname === '/core/echo' && body.includes('"now"'))
          return rewrite(`now ${++echoes}`)
        if (request.pathname === '/type/string/upcase' || body.includes('type.string.upcase')) {
          return rewrite('changed')
        }
        return answer
      },
    }
    const log: string[] = []
    const shadow = await createShadow({
      upstream,
      serviceName: 'proc',
      upstreamSecret: SECRET,
      log: (line) => log.push(line),
    })
    await call(shadow, 'core.echo', SECRET, [['>>', 'now']], 'noisy')
    await call(shadow, 'core.echo', SECRET, [['>>', 'steady']], 'agreed')
    await call(shadow, 'type.string.upcase', SECRET, [['>>', 'abc']], 'read')
    // A composition that only reads may be asked again; one that writes may not.
    await call(
      shadow,
      'core.exec',
      SECRET,
      [['$$', 'proc', ['{}', ['()', 'type.string.upcase', ['>>', 'x']]]]],
      'exec-read',
    )
    await call(
      shadow,
      'core.exec',
      SECRET,
      [
        [
          '$$',
          'proc',
          [
            '{}',
            ['()', 'keyv.set', ['$$', 'key', 'k'], ['$$', 'value', 1]],
            ['()', 'type.string.upcase', ['>>', 'x']],
          ],
        ],
      ],
      'exec-write',
    )
    await shadow.settled()
    expect(outcomes(shadow)).toEqual([
      ['noisy', 'noise', 'a different answer'],
      ['read', 'differs', 'same answer'],
      ['exec-read', 'differs', 'same answer'],
      ['exec-write', 'differs', 'not asked: it writes'],
    ])
    expect(echoes).toBe(2)
    expect(shadow.report.differences).toBe(3)
    expect(log.find((line) => line.includes('noisy'))).toMatch(
      /noise: result: upstream "now 1", engine "now"/,
    )
    await shadow.close()
  })

  it('passes the upstream’s 429 on and compares nothing of it; the mirror does not run it', async () => {
    const real = engineUpstream(await upstreamEngine())
    let calls = 0
    const upstream: Upstream = {
      ...real,
      async send(request) {
        if (++calls === 2) {
          return {
            status: 429,
            headers: [
              ['Retry-After', '7'],
              ['Content-Type', 'text/plain'],
            ],
            body: new TextEncoder().encode('slow down'),
          }
        }
        return real.send(request)
      },
    }
    const log: string[] = []
    const shadow = await createShadow({
      upstream,
      serviceName: 'proc',
      upstreamSecret: SECRET,
      log: (line) => log.push(line),
    })
    const set = (v: number) =>
      call(shadow, 'keyv.set', SECRET, [
        ['$$', 'key', 'k'],
        ['$$', 'value', v],
      ])
    await set(1)
    const limited = await set(2)
    expect([limited.status, limited.headers, text(limited)]).toEqual([
      429,
      [
        ['Retry-After', '7'],
        ['Content-Type', 'text/plain'],
      ],
      'slow down',
    ])
    // Neither side wrote 2.
    expect(value(await call(shadow, 'keyv.get', SECRET, [['>>', 'k']]))).toBe(1)
    await shadow.settled()
    const { totals, notCompared } = shadow.report.toJSON()
    expect([totals.agreed, totals.differs, totals.notCompared]).toEqual([2, 0, 1])
    expect(notCompared).toEqual({ 'rate limited by the upstream (429)': 1 })
    expect(log).toEqual([
      'shadow: #2 keyv.set: the upstream answered 429 (retry-after 7), passed to the client as it came, not compared',
    ])
    await shadow.close()
  })

  it('puts what follows from a difference down to it, and saves the difference as a contract that fails on the engine', async () => {
    vi.resetModules()
    vi.doMock('../engine/auth/abilities', async (original) => {
      const real = await original<typeof Abilities>()
      // The changed rule: an ability with a bucket limit reaches every bucket.
      return { ...real, grantingTarget: real.granting }
    })
    let changedTarget: ReturnType<typeof handleTarget>
    let upstream: Upstream
    try {
      const engine = await import('../engine')
      const { engineUpstream: upstreamOf } = await import('../testing/engine-upstream')
      upstream = upstreamOf(await upstreamEngine(engine.createEngine))
      changedTarget = (await import('../conformance/targets')).handleTarget()
    } finally {
      vi.doUnmock('../engine/auth/abilities')
      vi.resetModules()
    }
    const dir = join(scratch, 'follows')
    const log: string[] = []
    const shadow = await createShadow({
      upstream,
      serviceName: 'proc',
      upstreamSecret: SECRET,
      reportDir: dir,
      log: (line) => log.push(line),
    })
    const limited = value(
      await call(shadow, 'auth.create', SECRET, [['$$', 'abilities', ['keyv?bucket=a']]], 'mint'),
    ) as string
    await call(
      shadow,
      'keyv.set',
      limited,
      [
        ['$$', 'bucket', 'a'],
        ['$$', 'key', 'x'],
        ['$$', 'value', 1],
      ],
      'set-a',
    )
    await call(
      shadow,
      'keyv.get',
      limited,
      [
        ['$$', 'bucket', 'a'],
        ['>>', 'x'],
      ],
      'get-a',
    )
    await call(
      shadow,
      'keyv.set',
      limited,
      [
        ['$$', 'bucket', 'b'],
        ['$$', 'key', 'y'],
        ['$$', 'value', 2],
      ],
      'set-b',
    )
    await call(
      shadow,
      'keyv.get',
      SECRET,
      [
        ['$$', 'bucket', 'b'],
        ['>>', 'y'],
      ],
      'get-b',
    )
    await call(
      shadow,
      'keyv.get',
      limited,
      [
        ['$$', 'bucket', 'c'],
        ['>>', 'z'],
      ],
      'get-c',
    )
    await call(
      shadow,
      'keyv.get',
      SECRET,
      [
        ['$$', 'bucket', 'a'],
        ['>>', 'x'],
      ],
      'get-a-again',
    )
    await shadow.settled()
    expect(outcomes(shadow)).toEqual([
      ['set-b', 'differs', 'not asked: it writes'],
      ['get-b', 'follows', 'not asked'],
      ['get-c', 'differs', 'same answer'],
    ])
    const [setB, getB] = shadow.report.exchanges
    expect(getB!.because).toBe(
      '#4 left the two accounts different, and this exchange uses what it left',
    )
    expect(setB!.differences).toEqual([
      {
        what: 'status',
        upstream: '200',
        engine: '401 ("authorization does not have the ability to access proc `keyv.set\'")',
      },
    ])
    expect(setB!.counterfactual).toMatch(/keyv\.set\?bucket=b/)
    expect(setB!.request.headers.authorization).toBe('Bearer $auth1')

    // Each difference of the engine's is a contract: it fails on the engine at its last step,
    // and passes on the service it was found against.
    const files = readdirSync(join(dir, 'contracts')).sort()
    expect(files).toEqual(['004-keyv.set.json', '006-keyv.get.json'])
    const contracts = loadContracts(files.map((name) => join(dir, 'contracts', name)))
    const onEngine = await verifyContracts(handleTarget(), contracts)
    expect(onEngine.map((r) => [r.status, r.stepResults.map((s) => s.status)])).toEqual([
      ['failed', ['passed', 'failed']],
      ['failed', ['passed', 'failed']],
    ])
    expect(onEngine[0]!.reason).toBe(
      "step 2 (keyv.set): expected status 200, got 401 (\"authorization does not have the ability to access proc `keyv.set'\"); it would have passed with: `keyv?bucket=a' widened to `keyv' would reach bucket `b' for key `y'; or add `keyv.set?bucket=b&prefix=y'",
    )
    const onUpstream = await verifyContracts(changedTarget, contracts)
    expect(onUpstream.map((r) => r.status)).toEqual(['passed', 'passed'])
    // And a link to the differing step: the contract's case, to its last step.
    const linked = await readStepLink(linkInFragment(new URL(setB!.link!).hash)!)
    expect(linked.case.steps).toEqual(contracts[0]!.steps)

    const output = await everything(shadow, log, dir)
    expect(output).toContain('follows from #4')
    expectNoTokens(shadow, output, [SECRET, limited])
    await shadow.close()
  })
})
