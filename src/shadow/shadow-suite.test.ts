/**
 * The whole conformance suite and the notes example's contracts, played through the shadow in
 * this process (`conformance --shadow`, `verify --shadow`): against an unchanged upstream not
 * one difference; against an upstream with a changed rule, exactly the steps the changed rule
 * touches — the steps a direct run against that upstream fails — and no others.
 */
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import type { Case } from '../conformance/cases'
import { loadContracts } from '../conformance/contract/load'
import { loadCases } from '../conformance/load-cases'
import { runCases, type Target } from '../conformance/run'
import { createEngine, type Engine } from '../engine'
import type * as Abilities from '../engine/auth/abilities'
import { nodeHmac } from '../server/node-hmac'
import { createMemoryStore } from '../storage/memory-store'
import { engineUpstream } from '../testing/engine-upstream'
import { runShadow } from './shadow-run'
import type { Upstream } from './upstream'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const BASE = 'https://upstream.proc.test'
const cases = loadCases()
const notes = loadContracts([join(ROOT, 'examples/notes/contracts')])

const options = { store: createMemoryStore, serviceName: 'proc', baseUrl: BASE, hmac: nodeHmac }

/** The upstream: an engine with the rule changed that lets a bucket-limited ability reach every bucket. */
async function changedUpstream(): Promise<{ upstream: Upstream; direct: Target }> {
  vi.resetModules()
  vi.doMock('../engine/auth/abilities', async (original) => {
    const real = await original<typeof Abilities>()
    return { ...real, grantingTarget: real.granting }
  })
  try {
    const engine = await import('../engine')
    const memory = await import('../storage/memory-store')
    const { engineUpstream: upstreamOf } = await import('../testing/engine-upstream')
    const { handleTarget } = await import('../conformance/targets')
    const changed = engine.createEngine({ ...options, store: memory.createMemoryStore() })
    await changed.start()
    return { upstream: upstreamOf(changed), direct: handleTarget() }
  } finally {
    vi.doUnmock('../engine/auth/abilities')
    vi.resetModules()
  }
}

async function unchangedUpstream(): Promise<Upstream> {
  const engine: Engine = createEngine({ ...options, store: createMemoryStore() })
  await engine.start()
  return engineUpstream(engine)
}

const callSteps = (list: readonly Case[]) =>
  list.reduce((sum, c) => sum + c.steps.filter((s) => 'call' in s || 'mint' in s).length, 0)

const shadowed = (upstream: Upstream, list: readonly Case[], allSteps = false) =>
  runShadow(list, {
    upstream,
    serviceName: 'proc',
    controlToken: 'unused',
    allSteps,
    log: () => undefined,
  })

/** Each reported exchange as `case › step N` and what it was. */
const named = (exchanges: ReadonlyArray<{ label: string; outcome: string }>) =>
  exchanges.map((e) => `${e.label.replace(/ \([^)]*\)$/, '')}: ${e.outcome}`)

describe('conformance --shadow, in this process', () => {
  it('finds not one difference over the whole suite against an unchanged upstream', async () => {
    const { results, shadow } = await shadowed(await unchangedUpstream(), cases)
    expect(results.filter((r) => r.status !== 'passed').map((r) => r.reason)).toEqual([])
    const { totals, notCompared } = shadow.report.toJSON()
    expect(named(shadow.report.exchanges)).toEqual([])
    // Every call of every case was compared; the rest is the runner's control plane.
    expect(totals.agreed).toBe(callSteps(cases))
    expect(Object.keys(notCompared)).toEqual([
      'requests to the upstream’s control plane (/_account)',
    ])
    await shadow.close()
  }, 120_000)

  it('names exactly the steps a changed rule touches, and no others', async () => {
    const { upstream, direct } = await changedUpstream()
    const failing = (await runCases(direct, cases))
      .filter((r) => r.status === 'failed')
      .map((r) => `${r.id} › step ${r.stepResults.at(-1)!.index}: differs`)
    expect(failing.length).toBeGreaterThan(0)
    const { shadow } = await shadowed(upstream, cases)
    expect(named(shadow.report.exchanges)).toEqual(failing)
    await shadow.close()
  }, 120_000)
})

describe('verify --shadow, in this process, with the notes example’s contracts', () => {
  it('finds not one difference against an unchanged upstream', async () => {
    const { results, shadow } = await shadowed(await unchangedUpstream(), notes, true)
    expect(results.map((r) => r.status)).toEqual(notes.map(() => 'passed'))
    expect(shadow.report.toJSON().totals.agreed).toBe(callSteps(notes))
    expect(named(shadow.report.exchanges)).toEqual([])
    await shadow.close()
  })

  it('names the one step the changed rule touches', async () => {
    const { upstream } = await changedUpstream()
    const { shadow } = await shadowed(upstream, notes, true)
    const file = join(ROOT, 'examples/notes/contracts/notes.json')
    expect(named(shadow.report.exchanges)).toEqual([
      `${file} › notes.spec.ts › reaches no other user's notes › step 6: differs`,
    ])
    expect(shadow.report.exchanges[0]!.differences).toEqual([
      {
        what: 'status',
        upstream: '200',
        engine: '401 ("authorization does not have the ability to access proc `keyv.scan\'")',
      },
    ])
    await shadow.close()
  })
})
