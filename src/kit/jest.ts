/**
 * `service-playground/jest`: the service for Jest. `useService(options)` gives the test file the
 * service in this process (msw answers its base URL), or an account of its own on a running
 * `serve` (`serve: { url, controlToken }`), with the Vitest helper's isolation: what
 * the file's and a `describe`'s `beforeAll` write is there for every test inside; what a test
 * (and its `beforeEach` and `afterEach`) writes is undone when the test ends; a `test.concurrent`
 * gets a copy of the service of its own in process, or shares one frame with its concurrent
 * siblings over `serve`. Loaded at all (from `setupFilesAfterEnv`, or imported
 * in a test file), it adds `toHaveReceived`, `toReach` and `toBeNarrowerThan` to Jest's global
 * `expect`; `matchers` is the same for an `expect` of your own. Jest 29 and 30. `expect(service).toHaveReceived(endpoint, expected)` takes what
 * `useService` or `startService` returned (or anything with `requests()`).
 */
import type { ReceivedExpectation } from '../client/received-check'
import { inProcessHandle, type ServiceHandle } from './in-process-handle'
import { jestFrames } from './jest-frames'
import { insightMatchers, type ReachWhere, type UseSlack } from './reach-matchers'
import { toHaveReceived } from './received-matcher'
import type { ServeTarget } from './account-service'
import { serveHandle, type ServeServiceHandle } from './serve-handle'
import { checkUseServiceOptions, type UseServiceOptions } from './use-service-options'

export type { ReceivedRequest, RequestFilter } from '../client/journal'
export type { ReceivedExpectation } from '../client/received-check'
export type { ServiceHandle } from './in-process-handle'
export type { ServeTarget } from './account-service'
export type { ServeServiceHandle } from './serve-handle'
export type { StartServiceOptions } from '../node'
export type { ReachWhere } from './reach-matchers'
export type { ChaosKind, ChaosOptions } from './chaos/options'
export { ChaosFailure, type ChaosFinding } from './chaos/run'
export type { UseServiceOptions } from './use-service-options'

interface JestHooks {
  beforeAll(fn: () => Promise<void>): void
  afterAll(fn: () => void | Promise<void>): void
}

/**
 * Starts the service for this test file (in its `beforeAll`, stopped in its `afterAll`), with
 * `startService`'s options: call it at the top of a test file or in a `setupFilesAfterEnv`
 * file. `baseUrl`, `serviceName` and given secrets are known at once; `await service.ready`
 * gives the rest. With `serve`, the file's account on that server, removed after the file.
 */
export function useService(options: UseServiceOptions & { serve: ServeTarget }): ServeServiceHandle
export function useService(options?: UseServiceOptions): ServiceHandle
export function useService(options: UseServiceOptions = {}): ServiceHandle | ServeServiceHandle {
  const chaos = checkUseServiceOptions(options)
  const { beforeAll, afterAll } = globalThis as Partial<JestHooks>
  if (typeof beforeAll !== 'function' || typeof afterAll !== 'function') {
    throw new Error(
      "useService: Jest's globals are not here; call it from a Jest test file or a setupFilesAfterEnv file (with `injectGlobals` on, Jest's default)",
    )
  }
  const { serve, contract, coverage, chaos: _chaos, ...serviceOptions } = options
  const frames = jestFrames('useService', { contract, coverage }, chaos)
  if (serve) {
    return serveHandle(serviceOptions, serve, {
      beforeAll: (fn) => beforeAll(fn),
      afterAll: (fn) => afterAll(fn),
      ...frames,
    })
  }
  return inProcessHandle('useService', serviceOptions, {
    beforeAll: (fn) => beforeAll(fn),
    afterAll: (fn) => afterAll(fn),
    ...frames,
  })
}

/** The matchers, for `expect.extend(matchers)`. */
export const matchers = { toHaveReceived, ...insightMatchers }

const jestExpect = (globalThis as { expect?: { extend?: (given: object) => void } }).expect
jestExpect?.extend?.(matchers)

declare global {
  // Jest's matcher types live in this namespace (@types/jest, and Jest's own globals).
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace jest {
    interface Matchers<R> {
      /**
       * The service received requests to `endpoint` matching `expected`: at least one, or
       * exactly `times`. Its failure lists what did arrive, nearest first.
       */
      toHaveReceived(endpoint: string | RegExp, expected?: ReceivedExpectation): R
      /**
       * The token can call `endpoint` now (somewhere in `where`: a bucket, a key prefix, or one
       * key), as the service decides it. Await it. A value that is not a token of the running
       * service, an endpoint it does not have or a key `where` does not read is an error, with
       * `.not` too.
       */
      toReach(endpoint: string, where?: ReachWhere): Promise<R>
      /** The token reaches nothing its parent does not (the service's diff finds no item). */
      toBeNarrowerThan(parent: string): Promise<R>
      /**
       * The token reaches nothing beyond what the journal shows it using (`slack.endpoints`
       * endpoints more at most), by the service's least privilege (decision 090). Await it.
       */
      toBeNoWiderThanItsUse(slack?: UseSlack): Promise<R>
    }
  }
}
