/**
 * A repro replays the same on every target: the engine's `handle` called in process, msw
 * answering the global `fetch`, and `serve` over HTTP. Each planted bug's repro fails on each,
 * every time, and the exchanges it makes — endpoint, status, fault — are the same list on all
 * three; with the bug off the same faults pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Bugs } from '../../../examples/chaos-client/client'
import { scenarios, type Served } from '../../../examples/chaos-client/scenarios'
import { configure, start } from '../../cli/serve/serve-cli'
import { openAccount, type ServeAccount } from '../../client/open-account'
import type { ReceivedRequest } from '../../client/journal'
import type { Checkpoint } from '../../engine'
import { startService, type Service } from '../../node'
import { chaosFrameOver } from '../in-process-handle'
import { accountService } from '../account-service'
import type { RemoteService } from '../remote'
import { readRepro } from './repro'
import { replayChaos, type ChaosFrame } from './run'
import { serveChaosFrame } from './serve-frame'

interface Target {
  name: string
  frame: ChaosFrame
  served: Served
  /** The frame's checkpoint, with the journal id it was taken at. */
  checkpoint(): Promise<Checkpoint>
  /** The exchanges since journal id `after`: endpoint, status and fault of each. */
  exchanges(after: number): Promise<string[]>
}

const CONTROL = 'replay-targets-control-token-01'
let service: Service
let serve: Awaited<ReturnType<typeof start>>
let account: ServeAccount
let remote: RemoteService
const targets: Target[] = []

const shown = (request: ReceivedRequest) =>
  `${request.endpoint} ${request.status}${request.fault ? ` ${request.fault}` : ''}`

beforeAll(async () => {
  // Seeded: clocks that stand still (a retry-after is not lifted by a slow machine's real time)
  // and the same tokens on every target.
  service = await startService({ baseUrl: 'https://replay.example.test', seed: 'replay' })
  const inProcess = (fetch?: Served['fetch']) => ({
    frame: chaosFrameOver(service),
    checkpoint: () => service.checkpoint(),
    served: {
      baseUrl: service.baseUrl,
      listSecrets: () => service.listSecrets(),
      advanceClock: (seconds: number) => service.advanceClock(seconds),
      ...(fetch ? { fetch } : {}),
    },
    exchanges: async (after: number) =>
      service
        .requests()
        .filter((request) => request.id > after)
        .map(shown),
  })
  targets.push({ name: 'handle', ...inProcess((request) => service.engine.handle(request)) })
  targets.push({ name: 'msw', ...inProcess() })
  serve = await start(configure(['--port', '0', '--control-token', CONTROL]))
  account = await openAccount({ url: serve.url, controlToken: CONTROL, seed: 'replay' })
  remote = await accountService(account, {})
  targets.push({
    name: 'serve',
    frame: serveChaosFrame(remote),
    checkpoint: () => remote.checkpoint(),
    served: remote,
    exchanges: async (after) =>
      (await remote.requests()).filter((request) => request.id > after).map(shown),
  })
})
afterAll(async () => {
  service.stop()
  await account.close()
  await serve.stop()
})

/**
 * A client timeout load cannot fire on a call no fault met: one that did would change what the
 * client sends, and a replay is exact only while the client's timeouts fire on faulted calls
 * alone (decision 091). A repro with a hang keeps the client's own, shorter than the hang's bound.
 */
const TIMEOUT_MS = 5_000

/** Runs `scenario` once with the repro's faults on `target`: its exchanges and whether it failed. */
async function replay(target: Target, scenario: string, bugs: Bugs, repro: string) {
  const { faults } = readRepro(repro)
  const timeout = faults.some((fault) => fault.kind === 'hang') ? {} : { timeoutMs: TIMEOUT_MS }
  const start = await target.checkpoint()
  try {
    const failed = await replayChaos(target.frame, faults, () =>
      scenarios[scenario]!({ ...target.served, ...timeout }, bugs),
    ).then(
      () => false,
      () => true,
    )
    return { failed, exchanges: await target.exchanges(start.journal) }
  } finally {
    await target.frame.restore(start.id)
  }
}

/** Each planted bug, its scenario and a repro as a chaos failure prints one. */
const REPROS: Array<[keyof Bugs, string, string[]]> = [
  ['noBackoff', 'reads back what it wrote', ['keyv.set#1:throttle/1']],
  ['staleToken', 'reads back what it wrote', ['keyv.get#1:expire']],
  ['trustTruncated', 'reads back what it wrote', ['keyv.get#1:truncate']],
  ['reuseCursor', 'lists every key, two a page', ['keyv.scan#2:roll']],
  ['staleSecret', 'lists every key, two a page', ['keyv.scan#2:roll']],
  ['noTimeout', 'reads back what it wrote', ['keyv.get#1:hang']],
]

describe('a repro on the handle, msw and serve', () => {
  for (const [bug, scenario, faults] of REPROS) {
    it(`replays ${bug} (${faults.join(' ')}) the same on every target, every time`, async () => {
      const repro = JSON.stringify({ seed: 'replay', run: 0, test: scenario, faults })
      const seen = new Map<string, string[]>()
      for (const target of targets) {
        for (let i = 0; i < 2; i++) {
          const { failed, exchanges } = await replay(target, scenario, { [bug]: true }, repro)
          expect(failed, `${target.name}, replay ${i + 1}`).toBe(true)
          expect(exchanges.filter((line) => !line.endsWith(' 200')).length).toBeGreaterThan(0)
          const first = seen.get('first') ?? exchanges
          seen.set('first', first)
          expect(exchanges, `${target.name}, replay ${i + 1}`).toEqual(first)
        }
        // With the bug off, the same faults pass: the failure was the bug's.
        expect((await replay(target, scenario, {}, repro)).failed, target.name).toBe(false)
      }
    }, 60_000)
  }
})
