/**
 * `service-playground/vitest`: `useService(options)` starts the service for the test file it is
 * called in (msw answers its base URL in this process), brings it back to its starting state
 * after every test (faults, journal, clock, keys — the same secret keys), and stops it after
 * the file. `expect(service).toHaveReceived(endpoint, expected)` asserts on what arrived.
 */
import { afterAll, afterEach, beforeAll, expect } from 'vitest'
import type { FaultRule, SecretView } from '../engine'
import {
  checkReceived,
  startService,
  type AuthorizeOptions,
  type FaultOptions,
  type ReceivedExpectation,
  type ReceivedRequest,
  type RequestFilter,
  type Service,
  type StartServiceOptions,
} from '../node'
import { DEFAULT_BASE_URL, DEFAULT_SERVICE_NAME } from '../engine/settings'

export type UseServiceOptions = StartServiceOptions

/** The service of one test file: usable in tests and hooks (and `baseUrl` at once). */
export interface ServiceHandle {
  readonly baseUrl: string
  readonly serviceName: string
  /** The first secret key; known at once when `secrets` is given, otherwise from `beforeAll` on. */
  readonly secret: string
  readonly secrets: string[]
  /** The running service (Node API), from `beforeAll` on. */
  readonly service: Service
  authorize(abilities: string[], options?: AuthorizeOptions): Promise<string>
  advanceClock(seconds: number): Promise<number>
  now(): Promise<number>
  createSecret(key?: string): Promise<SecretView>
  rollSecret(id: string, at?: number): Promise<SecretView>
  listSecrets(): Promise<SecretView[]>
  /** Adds a fault for the rest of this test (faults are cleared after each test). */
  fault(options: FaultOptions): FaultRule
  clearFaults(id?: string): void
  /** The requests received in this test so far, oldest first. */
  requests(filter?: RequestFilter): ReceivedRequest[]
  reset(): Promise<void>
}

const HANDLE = Symbol.for('service-playground.handle')

/** Starts the service for this test file; see the module's doc. */
export function useService(options: UseServiceOptions = {}): ServiceHandle {
  let running: Service | undefined
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
    running = await startService(options)
  })
  afterEach(async () => {
    await running?.reset()
  })
  afterAll(() => {
    running?.stop()
    running = undefined
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
  } as ServiceHandle
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
