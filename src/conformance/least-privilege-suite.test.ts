// The replay proof over the conformance suite (decision 090): every case is played on an engine
// in this process with its journal on, and at its end (before the next case resets the account)
// every token it used is tightened on that same account, its calls replayed under the
// suggestion with the state they met. None may be refused anew or answered otherwise, and no
// suggestion may reach what its minted token does not.
import { afterAll, describe, expect, it } from 'vitest'
import { createEngine, createManualClock } from '../engine'
import type { TokenLeastPrivilege } from '../engine/insight'
import { nodeHmac } from '../server/node-hmac'
import { createMemoryStore } from '../storage'
import { controlOver, fromResponse, toRequest } from './fetch-target'
import { loadCases } from './load-cases'
import { runCase, type Target } from './run'

const BASE = 'https://least.proc.test'
const engine = createEngine({
  store: createMemoryStore(),
  baseUrl: BASE,
  serviceName: 'proc',
  clock: createManualClock(),
  hmac: nodeHmac,
  exchangeLog: 10_000,
})
const target: Target = {
  name: 'handle',
  baseUrl: BASE,
  serviceName: 'proc',
  control: controlOver(engine.handle, BASE),
  send: async (request) => fromResponse(await engine.handle(toRequest(request))),
}

describe('least privilege over the conformance suite', () => {
  afterAll(() => engine.settings.store.close())

  it('tightens every token of every case with 0 new refusals and 0 changed answers', async () => {
    const tokens: Array<TokenLeastPrivilege & { case: string }> = []
    for (const c of loadCases()) {
      const result = await runCase(target, c)
      expect(result.reason ?? '', c.id).toBe('')
      const journal = await engine.operator.journal.list()
      const report = await engine.insight.leastPrivilege(journal)
      for (const token of report.tokens) tokens.push({ ...token, case: c.id })
    }
    const failed = tokens
      .filter((t) => t.proof?.status !== 'proven')
      .map((t) => `${t.case} ${t.label}: ${t.proof?.sentence ?? 'not proven'}`)
    expect(failed).toEqual([])
    const replayed = tokens.reduce((n, t) => n + (t.proof?.replayed ?? 0), 0)
    const narrowed = tokens.filter((t) => (t.excess?.endpoints ?? 0) > 0).length
    // Not the proof of an empty run: many tokens and calls, most tokens narrowed.
    // (68 tokens, 78 distinct calls, 44 narrowed when written.)
    expect(tokens.length).toBeGreaterThan(60)
    expect(replayed).toBeGreaterThan(70)
    expect(narrowed).toBeGreaterThan(tokens.length / 2)
  }, 300_000)
})
