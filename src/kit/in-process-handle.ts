/**
 * The in-process service a test file gets, whatever runs the tests: started before the file's
 * tests, stopped after them, its frames given by the runner's own hooks. `useService` of
 * `service-playground/vitest` and of `service-playground/jest` are both this, with their
 * runner's hooks.
 */
import {
  DEFAULT_JOURNAL,
  startService,
  type RequestFilter,
  type Service,
  type ServiceControls,
  type StartServiceOptions,
  type UnroutedService,
} from '../node'
import { DEFAULT_BASE_URL, DEFAULT_SERVICE_NAME } from '../engine/settings'
import { realTime } from '../engine/real-time'
import { inFlightOf } from '../node/calls-in-flight'
import { saveContract, type ContractRecorder, type ContractSource } from './contract'
import type { InsightSource } from './reach-matchers'
import type { Framed } from './vitest-frames'
import type { ExchangeRecord } from '../engine'
import { trimBaseUrl } from '../client/wire'
import { controlsOver } from '../client/service-controls'
import { exempt } from './chaos/plan'
import type { ChaosFrame } from './chaos/run'

/** The test running now: its case name, its project's root, the journal's id before it began. */
export interface TestScope {
  after: number
  name: string
  root: string
  /**
   * The fixtures' exchanges when they are in another journal: a concurrent test over `serve`
   * runs on a fork of the file's account, whose journal starts empty.
   */
  setup?: readonly ExchangeRecord[]
}

/**
 * What every handle adds to `ServiceControls`. `reset()` goes back to the state the service
 * started in (the file's setup too): one call away. `fault` holds for the rest of the test (a
 * test's faults are undone when it ends); `requests` gives the requests received in this test so
 * far (its `beforeEach` hooks included), oldest first.
 */
export interface Common {
  /** Resolves once the service is up: from then on `baseUrl`, `secret` and `secrets` are known. */
  readonly ready: Promise<void>
  /** The first secret key; known at once when `secrets` is given, otherwise once `ready`. */
  readonly secret: string
  readonly secrets: string[]
  /** Records this test's exchanges so far into a contract file: `contract.save('contracts/x.json')`. */
  readonly contract: ContractRecorder
}

/** The service of one test file, in this process: usable in tests and hooks. */
export interface ServiceHandle extends ServiceControls<true>, Common {
  /** The running service (Node API), from `beforeAll` on. */
  readonly service: Service
}

/** What the frames need of the file's service; the runner's helper gives them their hooks. */
export interface FrameParts {
  framed: () => Promise<Framed>
  source: () => Promise<ContractSource>
  /**
   * Runs one concurrent test, its exchanges those after journal id `after`. In process a copy
   * of the service of its own answers it alone (`shared` false). Over `serve` it shares one
   * frame with the siblings running beside it (`shared` true), whose exchanges cannot be told
   * from its own: `groupEnded` runs once, when the last of them ends, before the frame is undone.
   */
  concurrent: (
    run: (from: {
      after: number
      shared: boolean
      setup?: readonly ExchangeRecord[]
    }) => Promise<void>,
    groupEnded: (after: number) => Promise<void>,
  ) => Promise<void>
  insight: InsightSource
  /** The service a chaos run injects into, with its frames. */
  chaos?: () => Promise<ChaosFrame>
}

/** A test runner's part: where the service starts and stops, the running test, the frames. */
export interface RunnerHooks {
  beforeAll(fn: () => Promise<void>): void
  afterAll(fn: () => void | Promise<void>): void
  /** The test running now, or none (in a `beforeAll`). */
  scope(): TestScope | undefined
  frame(parts: FrameParts): void
}

export const HANDLE = Symbol.for('service-playground.handle')

/** Where the recorder reads a service in this process: its journal (of `capacity`) and secrets. */
export function contractSource(running: Service, capacity: number): ContractSource {
  return {
    baseUrl: running.baseUrl,
    serviceName: running.serviceName,
    journal: async (after = 0) => ({
      capacity,
      exchanges: running
        .requests()
        .filter((request) => request.id > after)
        .reverse()
        .map((request) => request.exchange),
    }),
    secrets: () => running.listSecrets(),
  }
}

/** The service of a test file, in this process, framed by `hooks`. */
export function inProcessHandle(
  where: string,
  serviceOptions: StartServiceOptions,
  hooks: RunnerHooks,
): ServiceHandle {
  let running: Service | undefined
  const baseUrl = trimBaseUrl(serviceOptions.baseUrl ?? DEFAULT_BASE_URL)
  const serviceName = serviceOptions.serviceName ?? DEFAULT_SERVICE_NAME
  let started: Promise<Service> | undefined
  const start = () =>
    (started ??= startService(serviceOptions).then((s) => {
      const calls = inFlightOf(s)
      if (calls) calls.sentBy = () => hooks.scope()?.name
      return (running = s)
    }))

  hooks.beforeAll(async () => {
    await start()
  })
  const service = (): Service => {
    if (!running) {
      throw new Error(
        `${where}: the service starts in beforeAll; use it inside a test or a hook, or \`await service.ready\` first (only baseUrl, serviceName and given secrets are known before)`,
      )
    }
    return running
  }
  const requests = (filter?: RequestFilter) => {
    const after = hooks.scope()?.after ?? 0
    return service()
      .requests(filter)
      .filter((request) => request.id > after)
  }
  const source = async (): Promise<ContractSource> =>
    contractSource(service(), serviceOptions.journal ?? DEFAULT_JOURNAL)
  const controls = controlsOver(service)
  hooks.frame({
    framed: async () => {
      const framed = service()
      return {
        checkpoint: () => framed.checkpoint(),
        restore: async (id) => {
          await settled(framed)
          await framed.restore(id)
        },
      }
    },
    source,
    // A copy of its own for each concurrent test: msw answers it alone from the copy.
    concurrent: (run) => service().isolated(() => run({ after: 0, shared: false }))(),
    insight: controls,
    chaos: async () => chaosFrameOver(service()),
  })
  hooks.afterAll(async () => {
    if (running) await settled(running)
    running?.stop()
    running = undefined
    started = undefined
  })

  return {
    [HANDLE]: true,
    get ready() {
      return start().then(() => undefined)
    },
    baseUrl,
    serviceName,
    get secret() {
      return serviceOptions.secrets?.[0] ?? service().secret
    },
    get secrets() {
      return serviceOptions.secrets && serviceOptions.secrets.length > 0
        ? [...serviceOptions.secrets]
        : service().secrets
    },
    get service() {
      return service()
    },
    ...controls,
    // The test's own setup: never faulted by a chaos run.
    authorize: (abilities, authorizeOptions) =>
      exempt(() => service().authorize(abilities, authorizeOptions)),
    requests,
    contract: recorder(hooks.scope, source),
  } as ServiceHandle
}

/**
 * Waits for the calls the service is still answering, each named in a warning with the test that
 * sent it: a call not awaited would otherwise write into whatever frame comes next.
 */
async function settled(service: UnroutedService): Promise<void> {
  // A request sent just before the test ended reaches msw's handler a few turns later.
  for (let turn = 0; turn < 3; turn++) {
    await new Promise<void>((resolve) => realTime.setTimeout(resolve, 0))
  }
  const calls = inFlightOf(service)?.list() ?? []
  for (const { endpoint, sentBy } of calls) {
    console.warn(
      `service-playground: a call to ${endpoint} sent ${sentBy ? `by "${sentBy}"` : 'outside any test (in a beforeAll?)'} was still being answered when its frame was to be undone (was it not awaited?): waited for it, so that what it writes is undone with the frame it was sent in`,
    )
  }
  await Promise.allSettled(calls.map(({ answered }) => answered))
}

/** `contract.save(path)`: the running test's exchanges so far, into a contract file. */
export function recorder(
  scope: () => TestScope | undefined,
  source: () => Promise<ContractSource>,
): ContractRecorder {
  return {
    async save(path) {
      const test = scope()
      if (!test) throw new Error('contract.save: call it inside a test (or its hooks)')
      const { after, ...named } = test
      return (await saveContract(await source(), { ...named, ...(after ? { after } : {}) }, path))!
    },
  }
}

/**
 * A chaos run's frame over a service in this process: its planner, reach, clock, secrets and
 * checkpoints; a restore waits for the calls still answering first.
 */
export const chaosFrameOver = (running: UnroutedService): ChaosFrame => ({
  plan: (planner) => running.plan(planner),
  reach: (token) => running.reach(token),
  now: () => running.now(),
  advanceClock: (seconds) => running.advanceClock(seconds),
  listSecrets: () => running.listSecrets(),
  rollSecret: (id) => running.rollSecret(id),
  checkpoint: () => running.checkpoint(),
  restore: async (id) => {
    await settled(running)
    await running.restore(id)
  },
})
