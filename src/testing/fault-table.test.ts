import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { createEngine, type FaultKind, type FaultOptions } from '../engine'
import { startService } from '../node'
import { remoteService } from '../kit/remote'
import { listen } from '../server/http'
import { createMemoryStore } from '../storage/memory-store'
import type { ReceivedRequest } from '../client/journal'
import {
  cellsIn,
  cellText,
  FAULT_KINDS,
  FAULT_RULES,
  FAULT_TABLE,
  FAULT_TARGETS,
  judge,
  probe,
  PROBE_BODY,
  TARGET_HEADS,
  type FaultTarget,
  type Observation,
} from './fault-table'

/** Meets every kind once, through `fault` and `requests` of a service a test holds. */
async function meetEveryKind(
  baseUrl: string,
  token: string,
  fault: (rule: FaultOptions) => unknown,
  requests: () => ReceivedRequest[] | Promise<ReceivedRequest[]>,
) {
  const observed = {} as Record<FaultKind, { observation: Observation; journaled: unknown }>
  for (const kind of FAULT_KINDS) {
    await fault(FAULT_RULES[kind])
    const observation = await probe({ url: `${baseUrl}/core/echo`, token, body: PROBE_BODY })
    const last = (await requests()).at(-1)!
    observed[kind] = { observation, journaled: { status: last.status, fault: last.fault } }
  }
  return observed
}

const expectColumn = (target: FaultTarget, observed: Parameters<typeof judge>[1]) =>
  expect(judge(target, observed), JSON.stringify(observed, null, 1)).toEqual([])

describe('the fault table', () => {
  it('is what the docs say, cell by cell', () => {
    const cells = cellsIn(readFileSync(new URL('../../docs/node-api.md', import.meta.url), 'utf8'))
    expect(cells).toEqual([
      ['kind', ...FAULT_TARGETS.map((target) => TARGET_HEADS[target])],
      ...FAULT_KINDS.map((kind) => [
        `\`${kind}\``,
        ...FAULT_TARGETS.map((target) => cellText(kind, FAULT_TABLE[target][kind])),
      ]),
    ])
  })

  it('holds in Node: a service in this process, answered through msw', async () => {
    const service = await startService({ baseUrl: 'https://faults.node.test', journal: 100 })
    try {
      const observed = await meetEveryKind(
        service.baseUrl,
        service.secret,
        (rule) => service.fault(rule),
        () => service.requests(),
      )
      expectColumn('node', observed)
    } finally {
      service.stop()
    }
  })

  describe('over HTTP', () => {
    const closing: Array<() => Promise<void>> = []
    afterAll(async () => {
      for (const close of closing) await close()
    })

    it('holds for a client of serve: its node:http server', async () => {
      const engine = createEngine({ store: createMemoryStore(), baseUrl: 'http://127.0.0.1' })
      const [secret] = await engine.start()
      const controlToken = 'fault-table-control-token'
      const server = await listen(engine, { port: 0, controlToken })
      closing.push(() => server.close())
      const remote = remoteService({
        baseUrl: server.url,
        serviceName: 'service',
        secret: secret!,
        send: (request) => fetch(request),
        controlToken,
      })
      await remote.control('exchanges', { capacity: 100 })
      const observed = await meetEveryKind(
        server.url,
        secret!,
        (rule) => remote.fault(rule),
        () => remote.requests(),
      )
      expectColumn('http', observed)
    })
  })
})
