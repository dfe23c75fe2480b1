import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEngine } from '../engine'
import { createMemoryStore } from '../storage'
import { parseCaseFile } from './cases'
import { loadCases } from './load-cases'
import { nodeHmac } from '../server/node-hmac'
import { describeReplay, replayRecording, type Recording } from './replay'
import { junit } from './report'
import { runCase, runCases, type Target } from './run'
import { handleTarget, mswTarget, serveTarget } from './targets'

const cases = loadCases()
const root = fileURLToPath(new URL('../..', import.meta.url))

it('has a case for every rule: at least 300', () => {
  expect(cases.length).toBeGreaterThanOrEqual(300)
})

/**
 * The run of every case on the first target, a seeded account keeping its history: each target
 * replays it byte for byte after running the cases itself (decision 086).
 */
let recorded: Promise<Recording> | undefined

function describeTarget(
  name: string,
  open: () => Promise<Target & { close?: () => unknown }>,
  { replays = true } = {},
) {
  describe(`conformance on ${name}`, () => {
    let target: Target & { close?: () => unknown }
    beforeAll(async () => {
      target = await open()
    }, 60_000)
    afterAll(() => target?.close?.())
    for (const c of cases) {
      it(c.id, async () => {
        const result = await runCase(target, c)
        expect(result.reason ?? '').toBe('')
        expect(result.status).toBe('passed')
      })
    }
    if (replays) {
      it('replays the run of every case byte for byte, minted tokens and cursors included', async () => {
        recorded ??= target.control!('recording?from=1') as Promise<Recording>
        const recording = await recorded
        const result = await replayRecording(recording, target)
        expect(describeReplay(result)).toBe(
          `${result.exchanges} of ${result.exchanges} exchanges replayed identically`,
        )
        // Every call of every case: the recording holds them all.
        const calls = recording.steps.filter((step) => 'exchange' in step).length
        expect(result.exchanges).toBe(calls)
        expect(calls).toBeGreaterThan(600)
      }, 120_000)
    }
  })
}

describeTarget('handle', async () =>
  handleTarget((options) =>
    createEngine({
      store: createMemoryStore(),
      hmac: nodeHmac,
      seed: 'conformance',
      exchangeLog: 10_000,
      ...options,
    }),
  ),
)
// The cases write the service's name as {service}: they hold for a service of any name.
describeTarget('handle, a service named acme', async () => handleTarget({ serviceName: 'acme' }), {
  replays: false,
})
describeTarget('msw setupServer', async () => mswTarget())
describeTarget('serve over HTTP', () => serveTarget(root))

describe('the runner', () => {
  it('fails a broken engine, naming the case and the step', async () => {
    // This engine answers one endpoint with another's work: a rule flipped.
    const broken = handleTarget((options) => {
      const engine = createEngine({ store: createMemoryStore(), ...options })
      const handle = engine.handle
      engine.handle = (request) => {
        const url = request.url.replace('/type/string/reverse', '/type/string/upcase')
        return handle(new Request(url, request))
      }
      return engine
    })
    const results = await runCases(
      broken,
      cases.filter((c) => c.id.includes('type.string.reverse answers')),
    )
    const failed = results.filter((r) => r.status === 'failed')
    expect(failed.length).toBeGreaterThan(0)
    expect(failed[0]!.id).toMatch(/^02-endpoints\.json › type\.string\.reverse answers \[/)
    expect(failed[0]!.reason).toMatch(
      /^step 1 \(type\.string\.reverse\): expected result "olleh", got "HELLO"$/,
    )
  })

  it('puts the request and the answer in a JUnit failure, the secret by name', async () => {
    const broken = handleTarget((options) => {
      const engine = createEngine({ store: createMemoryStore(), ...options })
      const handle = engine.handle
      engine.handle = (request) =>
        handle(
          new Request(request.url.replace('/type/string/reverse', '/type/string/upcase'), request),
        )
      return engine
    })
    const [result] = await runCases(
      broken,
      cases.filter((c) => c.id.endsWith('type.string.reverse answers [json]')),
    )
    const xml = junit('handle', [result!])
    const secret = result!.credentials.find(([, name]) => name === '$secret')![0]
    expect(xml).toContain('<failure message="step 1 (type.string.reverse): expected result')
    expect(xml).toContain('POST https://conformance.proc.test/type/string/reverse')
    expect(xml).toContain('authorization: Bearer $secret')
    expect(xml).toMatch(
      /answered 200\n[^]*content-type: application\/json\n[^]*\n\n&#34;HELLO&#34;/,
    )
    expect(xml).not.toContain(secret)
  })

  it('refuses a bad case file, naming the file and the field', () => {
    const bad = JSON.stringify({
      description: 'x',
      cases: [{ name: 'n', steps: [{ call: 'core.ping', expect: { status: 'ok' } }] }],
    })
    expect(() => parseCaseFile('bad.json', bad)).toThrow(/^bad\.json: \/cases\/0\/steps\/0/)
    expect(() => parseCaseFile('broken.json', '{')).toThrow(/^broken\.json: not valid JSON/)
  })
})
