// The report of a chaos run, from what its tests found: the exchange a failure turned on (an
// engine refusal before an injected fault), failures grouped by their shrunk faults, the totals,
// the JUnit cases with every credential by its name, and the summary section withheld when it
// would show a token.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { junit } from '../../conformance/report'
import type { ExchangeRecord } from '../../engine'
import { createHarness, type Harness } from '../../testing/engine-harness'
import { chaosSummary, summarizeChaos } from '../test-summary'
import type { ChaosFault } from './address'
import {
  chaosCases,
  chaosReportText,
  exchangeThatMatters,
  groupByCause,
  type ChaosOutcome,
} from './report'
import { reproOf, type ChaosFinding } from './run'

let h: Harness
let token = ''
let refused: ExchangeRecord[] = []
let faulted: ExchangeRecord[] = []
const dir = mkdtempSync(join(tmpdir(), 'chaos-report-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

beforeAll(async () => {
  h = await createHarness({ exchangeLog: 50 })
  token = await h.authorize({ abilities: ['keyv?bucket=notes'] })
  await h.control('faults', { kind: 'status', status: 503, endpoint: 'core.ping', count: 1 })
  await h.call('core.ping', {})
  const journal = async () => (await h.control('exchanges')).body as { exchanges: ExchangeRecord[] }
  faulted = (await journal()).exchanges
  // A refusal by the rules after the fault: the token lacks the ability.
  await h.call('core.ping', { token })
  refused = (await journal()).exchanges
})

const finding = (test: string, faults: ChaosFault[], cause: string): ChaosFinding => ({
  test,
  seed: 's',
  run: 2,
  met: [...faults, { endpoint: 'keyv.set', nth: 1, kind: 'delay', delayMs: 3 }],
  faults,
  minimal: true,
  reruns: 7,
  shrinkMs: 12,
  repro: reproOf('s', 2, test, faults),
  cause: new Error(cause),
})
const throttle: ChaosFault = { endpoint: 'keyv.get', nth: 1, kind: 'throttle', retryAfter: 1 }
const roll: ChaosFault = { endpoint: 'keyv.scan', nth: 2, kind: 'roll' }

describe('the report of a chaos run', () => {
  it('shows the exchange a failure turned on: a refusal by the rules first, else the fault', () => {
    const rule = exchangeThatMatters(refused)!
    expect(rule).toMatchObject({ endpoint: 'core.ping', status: 401 })
    expect(rule.fault).toBeUndefined()
    expect(rule.counterfactual).toMatch(/\S/)
    expect(rule.trace.join('\n')).toMatch(/outcome: 401/)
    const fault = exchangeThatMatters(faulted)!
    expect(fault).toMatchObject({ endpoint: 'core.ping', status: 503, fault: '503' })
    expect(exchangeThatMatters([])).toBeUndefined()
  })

  const outcomes: ChaosOutcome[] = [
    { test: 'a.test.ts › one', runs: 3, finding: finding('a.test.ts › one', [roll], 'locked out') },
    { test: 'a.test.ts › two', runs: 20 },
    {
      test: 'a.test.ts › three',
      runs: 1,
      finding: finding('a.test.ts › three', [throttle], 'gave up'),
    },
    {
      test: 'a.test.ts › four',
      runs: 5,
      finding: finding('a.test.ts › four', [throttle], 'gave up'),
    },
    { test: 'a.test.ts › five', runs: 1, ownFailure: 'expected 1 to be 2' },
  ]

  it('groups failures by their shrunk faults, the largest group first', () => {
    const groups = groupByCause(outcomes)
    expect(groups.map((g) => [g.cause, g.outcomes.map((o) => o.test)])).toEqual([
      [['keyv.get#1:throttle/1'], ['a.test.ts › three', 'a.test.ts › four']],
      [['keyv.scan#2:roll'], ['a.test.ts › one']],
    ])
    const text = chaosReportText('s', 20, outcomes)
    expect(text.split('\n')[0]).toBe(
      "chaos (seed s): 5 tests × 20 runs (30 runs), 3 failed, in 2 causes, 1 failed without any fault (the test's own failure)",
    )
    expect(text).toMatch(/cause 1: keyv\.get#1:throttle\/1 \(1-minimal\)\n/)
    expect(text).toContain('    ✗ a.test.ts › four (run 2): gave up')
  })

  it('writes JUnit a case a test, a credential by its name', () => {
    const exchange = exchangeThatMatters(refused)!
    const leaky: ChaosOutcome = {
      test: 'a.test.ts › leaks',
      runs: 1,
      finding: finding('a.test.ts › leaks', [throttle], `sent ${token}`),
      exchange,
    }
    const xml = junit('a.test.ts', chaosCases([...outcomes, leaky], [[token, '$token']]), 'chaos')
    expect(xml).toMatch(/<testsuite name="chaos \(a.test.ts\)" tests="6" failures="5" skipped="0"/)
    expect(xml).toContain(
      `message="chaos run 2 failed with keyv.get#1:throttle/1: core.ping answered 401 (${exchange.reason.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)})`,
    )
    expect(xml).toContain('sent $token')
    expect(xml).toContain('without any fault: expected 1 to be 2')
    expect(xml).not.toContain(token)
  })

  it('appends a summary section of its causes, withheld when it would show a token', () => {
    const markdown = chaosSummary('a.test.ts', { seed: 's', runs: 20 }, outcomes)
    expect(markdown).toMatch(/^### 🌀 chaos in a.test.ts \(seed s\)\n\n5 tests × 20 runs/)
    expect(markdown).toMatch(/^\| `keyv.get#1:throttle\/1` \| three<br>four \| /m)
    expect(markdown).toContain(
      "Repro of cause 2 (a.test.ts › one):\n\n```sh\nSERVICE_PLAYGROUND_CHAOS='",
    )
    const file = join(dir, 'summary.md')
    const env = { GITHUB_STEP_SUMMARY: file }
    expect(summarizeChaos('a.test.ts', { seed: 's', runs: 20 }, outcomes, [token], env)).toBe(true)
    const leaky: ChaosOutcome = {
      test: `a.test.ts › sends ${token}`,
      runs: 1,
      finding: finding(`a.test.ts › sends ${token}`, [throttle], 'gave up'),
    }
    expect(summarizeChaos('a.test.ts', { seed: 's', runs: 1 }, [leaky], [token], env)).toBe(false)
    const written = readFileSync(file, 'utf8')
    expect(written).toContain('### 🌀 chaos in a.test.ts (seed s)')
    expect(written).toContain('a section was withheld')
    expect(written).not.toContain(token)
    expect(chaosSummary('a.test.ts', { seed: 's', runs: 2 }, [outcomes[1]!])).toBe(
      '### ✅ chaos in a.test.ts (seed s)\n\n1 test × 2 runs (20 runs), no failure found.',
    )
  })
})
