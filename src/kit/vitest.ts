/**
 * `service-playground/vitest`: `useService(options)` starts the service for the test file it is
 * called in (msw answers its base URL in this process), brings it back to its starting state
 * after every test (faults, journal, clock, keys — the same secret keys), and stops it after
 * the file. `expect(service).toHaveReceived(endpoint, expected)` asserts on what arrived;
 * `service.contract.save(path)` (or the `contract` option) records what a test relied on.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, type TestContext } from 'vitest'
import {
  checkReceived,
  startService,
  type ReceivedExpectation,
  type ReceivedRequest,
  type Service,
  type ServiceControls,
  type StartServiceOptions,
} from '../node'
import { DEFAULT_BASE_URL, DEFAULT_SERVICE_NAME } from '../engine/settings'
import { saveContract, type ContractRecorder, type TestContract } from './contract'
import { coverageCollector } from './coverage-collect'
import { registerInsight } from './reach-matchers'
import './vitest-insight'

export type { ContractRecorder } from './contract'

export interface UseServiceOptions extends StartServiceOptions {
  /**
   * Records every passing test of the file into this contract file (relative to Vitest's
   * root), each as its own case, at the test's end before the reset; a test that made no
   * request to the service is left out.
   */
  contract?: string
  /**
   * Tallies the authorization coverage of every test (decision 057) into this file (relative to
   * Vitest's root), added up across the files and workers of the run:
   * `coverage: 'service-coverage.json'`, read by `npx service-playground coverage`.
   */
  coverage?: string
}

/**
 * The service of one test file, usable in tests and hooks (`baseUrl` at once; see
 * `ServiceControls`). Faults are cleared, and the journal emptied, after each test.
 */
export interface ServiceHandle extends ServiceControls<true> {
  /** The first secret key; known at once when `secrets` is given, otherwise from `beforeAll` on. */
  readonly secret: string
  readonly secrets: string[]
  /** The running service (Node API), from `beforeAll` on. */
  readonly service: Service
  /** Records this test's exchanges so far into a contract file: `contract.save('contracts/x.json')`. */
  readonly contract: ContractRecorder
  /** What `token` can do (decision 055), at `at` (Unix seconds) or now. */
  reach: Service['reach']
  /** The decision for each call as a real call would meet it, writing nothing. */
  simulate: Service['simulate']
  /** What `b` reaches that `a` does not, and the reverse, each with a call that proves it. */
  diff: Service['diff']
}

const HANDLE = Symbol.for('service-playground.handle')

/** Starts the service for this test file; see the module's doc. */
export function useService(options: UseServiceOptions = {}): ServiceHandle {
  const { contract, coverage, ...serviceOptions } = options
  let running: Service | undefined
  let current: TestContract | undefined
  let root = process.cwd()
  const collector = coverageCollector(coverage, () => root)
  let unregister: (() => void) | undefined
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '')
  const serviceName = options.serviceName ?? DEFAULT_SERVICE_NAME
  for (const key of options.secrets ?? []) {
    if (typeof key !== 'string' || key === '') {
      throw new Error(
        `useService: secrets must be non-empty strings, got ${JSON.stringify(key)} (is the environment variable you read it from set?)`,
      )
    }
  }

  beforeAll(async () => {
    running = await startService(serviceOptions)
    const service = running
    unregister = registerInsight({
      reach: (token, at) => service.reach(token, at),
      simulate: (token, calls, at) => service.simulate(token, calls, at),
      diff: (a, b, at) => service.diff(a, b, at),
    })
  })
  // Registered before the file's own hooks: the test's exchanges are those from its own
  // beforeEach hooks on, and its contract is saved after its afterEach hooks, before the reset.
  beforeEach(async (context) => {
    const after = await lastId(running)
    current = { ...testOf(context), ...(after === undefined ? {} : { after }) }
  })
  afterEach(async (context) => {
    try {
      if (coverage && running && current) {
        root = current.root
        collector.take(await running.engine.operator.journal.list(current.after))
      }
      if (contract && running && current && context.task.result?.state === 'pass') {
        await saveContract(contractSource(running), current, contract, true)
      }
    } finally {
      current = undefined
      await running?.reset()
    }
  })
  afterAll(async () => {
    unregister?.()
    running?.stop()
    running = undefined
    await collector.flush()
  })

  const service = (): Service => {
    if (!running) {
      throw new Error(
        'useService: the service starts in beforeAll; use it inside a test or a hook (only baseUrl, serviceName and given secrets are known before)',
      )
    }
    return running
  }

  return {
    [HANDLE]: true,
    baseUrl,
    serviceName,
    get secret() {
      return options.secrets?.[0] ?? service().secret
    },
    get secrets() {
      return options.secrets && options.secrets.length > 0
        ? [...options.secrets]
        : service().secrets
    },
    get service() {
      return service()
    },
    authorize: (abilities, authorizeOptions) => service().authorize(abilities, authorizeOptions),
    advanceClock: (seconds) => service().advanceClock(seconds),
    now: () => service().now(),
    createSecret: (key) => service().createSecret(key),
    rollSecret: (id, at) => service().rollSecret(id, at),
    listSecrets: () => service().listSecrets(),
    fault: (rule) => service().fault(rule),
    clearFaults: (id) => service().clearFaults(id),
    requests: (filter) => service().requests(filter),
    reset: () => service().reset(),
    reach: (token, at) => service().reach(token, at),
    simulate: (token, calls, at) => service().simulate(token, calls, at),
    diff: (a, b, at) => service().diff(a, b, at),
    contract: {
      async save(path) {
        if (!current) throw new Error('contract.save: call it inside a test (or its hooks)')
        return (await saveContract(contractSource(service()), current, path))!
      },
    },
  } as ServiceHandle
}

const lastId = async (service: Service | undefined) =>
  (await service?.engine.operator.journal.list())?.[0]?.id

/** The journal and secrets of a service in this process. */
const contractSource = (service: Service) => ({
  baseUrl: service.baseUrl,
  serviceName: service.serviceName,
  journal: async (after?: number) => ({
    capacity: (await service.engine.operator.view()).journal,
    exchanges: await service.engine.operator.journal.list(after),
  }),
  secrets: () => service.listSecrets(),
})

/** The test's case name (its file, describe blocks and title) and its project's root. */
function testOf({ task }: TestContext): Omit<TestContract, 'after'> {
  const titles = [task.name]
  for (let suite = task.suite; suite && suite !== task.file; suite = suite.suite) {
    titles.unshift(suite.name)
  }
  const { filepath, name: file } = task.file
  const root = filepath.endsWith(file) ? filepath.slice(0, -file.length) : process.cwd()
  return { name: [file, ...titles].join(' › '), root }
}

function isHandle(value: unknown): value is ServiceHandle {
  return typeof value === 'object' && value !== null && HANDLE in value
}

expect.extend({
  toHaveReceived(received: unknown, endpoint: string | RegExp, expected?: ReceivedExpectation) {
    if (
      !isHandle(received) &&
      !(typeof received === 'object' && received && 'requests' in received)
    ) {
      return {
        pass: false,
        message: () => 'toHaveReceived expects the service useService returned',
      }
    }
    const requests = (received as { requests(): ReceivedRequest[] }).requests()
    const { pass, message } = checkReceived(requests, endpoint, expected)
    return { pass, message: () => message }
  },
})

declare module 'vitest' {
  // The type parameter must read as vitest declares it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  interface Matchers<T = any> {
    /**
     * The service received requests to `endpoint` (a dotted name or a pattern) matching
     * `expected`: at least one, or exactly `times`. Its failure lists what did arrive, nearest first.
     */
    toHaveReceived(endpoint: string | RegExp, expected?: ReceivedExpectation): T
  }
}
