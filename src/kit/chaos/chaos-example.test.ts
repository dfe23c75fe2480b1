/**
 * The proof that seeded chaos finds what a client hides (examples/chaos-client): with each
 * planted bug on, a chaos run of the client's unmodified scenarios fails, shrunk to a 1-minimal
 * list of faults whose kind is the bug's cause, and its repro fails again with exactly those
 * faults, every time; with the bugs off the same runs find nothing, and nothing of the chaos is
 * left for a run without it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { BUG_NAMES, type Bugs } from '../../../examples/chaos-client/client'
import { scenarios } from '../../../examples/chaos-client/scenarios'
import { startService, type Service } from '../../node'
import { faultText, type ChaosFault } from './address'
import { readChaosOptions } from './options'
import { readRepro } from './repro'
import { contractSource } from '../in-process-handle'
import { chaosReporter, junitFileName } from './reporter'
import { ChaosFailure, replayChaos, runChaos, type ChaosFrame } from './run'

let service: Service
let frame: ChaosFrame
beforeAll(async () => {
  service = await startService({ baseUrl: 'https://chaos.example.test' })
  frame = {
    plan: (planner) => service.plan(planner),
    reach: (token) => service.reach(token),
    now: () => service.now(),
    advanceClock: (seconds) => service.advanceClock(seconds),
    listSecrets: () => service.listSecrets(),
    rollSecret: (id) => service.rollSecret(id),
    checkpoint: () => service.checkpoint(),
    restore: (id) => service.restore(id),
  }
})
afterAll(() => service.stop())

// Every kind: a hang costs the client its timeout (or the bound, for noTimeout) of real time.
const settings = readChaosOptions('test', { seed: 'proof', runs: 60 })
/**
 * A bug's search draws its cause's kinds and some that only add noise for shrinking to cut;
 * that every bug is found by the default settings too is the benchmark's (`npm run bench -- chaos`).
 */
const NOISE: Array<ChaosFault['kind']> = ['status', 'network', 'delay', 'expire']

/**
 * Runs `name` under `settings` (`kinds` in place of all) with `bugs`, in a frame of its own: the
 * failure found, if any.
 */
async function chaosRun(name: string, bugs: Bugs, runs = settings.runs, kinds = settings.kinds) {
  const start = await service.checkpoint()
  try {
    await runChaos(frame, name, { ...settings, runs, kinds }, () => scenarios[name]!(service, bugs))
    return undefined
  } catch (error) {
    if (error instanceof ChaosFailure) return error.finding
    throw error
  } finally {
    await service.restore(start.id)
  }
}

/** Whether `name` fails with exactly `faults`, from a frame of its own. */
async function failsWith(name: string, bugs: Bugs, faults: ChaosFault[]) {
  const start = await service.checkpoint()
  try {
    await replayChaos(frame, faults, () => scenarios[name]!(service, bugs))
    return false
  } catch {
    return true
  } finally {
    await service.restore(start.id)
  }
}

/** Each planted bug, the scenario that meets it, and the kinds its shrunk cause may be. */
const BUGS: Array<[keyof Bugs, string, Array<ChaosFault['kind']>]> = [
  ['noBackoff', 'reads back what it wrote', ['throttle']],
  ['staleToken', 'reads back what it wrote', ['expire', 'roll']],
  ['trustTruncated', 'reads back what it wrote', ['truncate', 'reset']],
  ['staleSecret', 'lists every key, two a page', ['roll']],
  ['reuseCursor', 'lists every key, two a page', ['roll']],
  ['noTimeout', 'reads back what it wrote', ['hang']],
]
const ALL_ON: Bugs = Object.fromEntries(BUG_NAMES.map((name) => [name, true]))

describe('seeded chaos on the client example', () => {
  it('passes its suite without chaos, bugs on or off', async () => {
    for (const bugs of [{}, ALL_ON]) {
      for (const name of Object.keys(scenarios)) {
        const start = await service.checkpoint()
        await scenarios[name]!(service, bugs)
        await service.restore(start.id)
      }
    }
  }, 60_000)

  for (const [bug, scenario, causes] of BUGS) {
    it(`finds ${bug} and shrinks it to its cause (${causes.join(' or ')}), 1-minimal, replayed as found`, async () => {
      const bugs = { [bug]: true }
      const finding = await chaosRun(scenario, bugs, settings.runs, [
        ...new Set([...causes, ...NOISE]),
      ])
      expect(finding, `${bug} not found in ${settings.runs} runs`).toBeDefined()
      if (finding) {
        expect(finding.minimal).toBe(true)
        expect(finding.faults.length).toBeGreaterThan(0)
        expect(finding.faults.some((fault) => causes.includes(fault.kind))).toBe(true)
        // What a failure prints holds no secret and no token: a signed token has a dot between
        // two long runs of base64url.
        const printed = `${new ChaosFailure(finding).message}\n${finding.repro}`
        expect(printed).not.toContain(service.secret)
        expect(printed).not.toMatch(/[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/)
        // 1-minimal, checked here rather than taken from the shrinker: the list fails, and
        // removing any one fault makes the test pass.
        expect(await failsWith(finding.test, bugs, finding.faults)).toBe(true)
        for (let i = 0; i < finding.faults.length; i++) {
          const without = finding.faults.filter((_, j) => j !== i)
          expect(await failsWith(finding.test, bugs, without), faultText(finding.faults[i]!)).toBe(
            false,
          )
        }
        // The repro reads back to the same test and faults, and fails every time it is run.
        const repro = readRepro(finding.repro)
        expect(repro).toMatchObject({ test: finding.test, seed: 'proof', run: finding.run })
        expect(repro.faults).toEqual(finding.faults)
        for (let i = 0; i < 3; i++)
          expect(await failsWith(repro.test, bugs, repro.faults)).toBe(true)
        // The same seed finds the same failure at the same run, shrunk the same.
        const again = await chaosRun(finding.test, bugs, finding.run + 1, [
          ...new Set([...causes, ...NOISE]),
        ])
        expect(again && { run: again.run, faults: again.faults }).toEqual({
          run: finding.run,
          faults: finding.faults,
        })
      }
    }, 120_000)
  }

  it('finds nothing with the bugs off, and leaves nothing behind for a run without chaos', async () => {
    // As many runs of every scenario as a bug took to be found, and more.
    for (const name of Object.keys(scenarios)) {
      expect(await chaosRun(name, {}, 20)).toBeUndefined()
    }
    const start = await service.checkpoint()
    const journalStart = service.requests().at(-1)?.id ?? 0
    for (const scenario of Object.values(scenarios)) {
      await scenario(service, ALL_ON)
    }
    const after = service.requests().filter((request) => request.id > journalStart)
    expect(after.length).toBeGreaterThan(0)
    expect(after.filter((request) => request.fault !== null)).toEqual([])
    await service.restore(start.id)
  }, 120_000)

  it('reports a run: tests × runs, failures grouped by cause with repro, trace and counterfactual, as text, JUnit and summary', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chaos-report-'))
    const summary = join(dir, 'summary.md')
    vi.stubEnv('GITHUB_STEP_SUMMARY', summary)
    try {
      const printed: string[] = []
      const reported = {
        ...settings,
        runs: 6,
        rate: 0.5,
        kinds: ['throttle' as const],
        junit: dir,
      }
      const reporter = chaosReporter(
        async () => contractSource(service, 1000),
        reported,
        (text) => printed.push(text),
      )
      const tests: Array<[string, Bugs]> = [
        ['client.test.ts › first reader', { noBackoff: true }],
        ['client.test.ts › second reader', { noBackoff: true }],
        ['client.test.ts › careful reader', {}],
      ]
      for (const [test, bugs] of tests) {
        const start = await service.checkpoint()
        const failure = await reporter
          .run(frame, test, () => scenarios['reads back what it wrote']!(service, bugs))
          .then(
            () => undefined,
            (error: unknown) => error,
          )
        if (bugs.noBackoff) expect(failure).toBeInstanceOf(ChaosFailure)
        else expect(failure).toBeUndefined()
        await service.restore(start.id)
      }
      await reporter.flush()
      const text = printed.join('\n')
      expect(text).toMatch(
        /^chaos \(seed proof\): 3 tests × 6 runs \(\d+ runs\), 2 failed, in [12] causes?/,
      )
      expect(text).toMatch(/cause 1: [a-z]+\.\w+#\d+:throttle\/1 \(1-minimal\)/)
      // The exchange the failure turned on: the second 429 the client met, with its trace.
      expect(text).toMatch(/^ {4}[a-z]+\.\w+ answered 429: injected_fault: rate limited/m)
      expect(text).toContain('decision trace:')
      expect(text).toContain("repro: SERVICE_PLAYGROUND_CHAOS='{")
      const xml = readFileSync(join(dir, junitFileName('client.test.ts')), 'utf8')
      expect(xml).toMatch(/<testsuite name="chaos \(client.test.ts\)" tests="3" failures="2"/)
      expect(xml).toMatch(
        /<failure message="chaos run \d+ failed with keyv\.\w+#\d+:throttle\/1: keyv\.\w+ answered 429/,
      )
      const section = readFileSync(summary, 'utf8')
      expect(section).toMatch(/^### 🌀 chaos in client\.test\.ts \(seed proof\)/)
      expect(section).toMatch(
        /^\| `[a-z]+\.\w+#\d+:throttle\/1` \| (first|second) reader \| `[a-z]+\.\w+` \| 429 \| injected_fault/m,
      )
      for (const written of [text, xml, section]) {
        expect(written).not.toContain(service.secret)
        expect(written).not.toMatch(/[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/)
      }
    } finally {
      vi.unstubAllEnvs()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
