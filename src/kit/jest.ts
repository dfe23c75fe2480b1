/**
 * `service-playground/jest`: `toHaveReceived` for Jest. Loaded from `setupFilesAfterEnv` (or
 * required in a test file), it extends Jest's global `expect`; `matchers` is the same for an
 * `expect` of your own. `expect(service).toHaveReceived(endpoint, expected)` takes the service
 * `startService` returned (or anything with `requests()`), as the Vitest matcher does.
 */
import { checkReceived, type ReceivedExpectation, type ReceivedRequest } from '../client/journal'

export type { ReceivedExpectation, ReceivedRequest, RequestFilter } from '../client/journal'

/** The matchers, for `expect.extend(matchers)`. */
export const matchers = {
  toHaveReceived(received: unknown, endpoint: string | RegExp, expected?: ReceivedExpectation) {
    if (typeof received !== 'object' || received === null || !('requests' in received)) {
      return {
        pass: false,
        message: () => 'toHaveReceived expects the service startService returned',
      }
    }
    const found = (
      received as { requests(): ReceivedRequest[] | Promise<ReceivedRequest[]> }
    ).requests()
    const judge = (requests: ReceivedRequest[]) => {
      const { pass, message } = checkReceived(requests, endpoint, expected)
      return { pass, message: () => message }
    }
    return Array.isArray(found) ? judge(found) : found.then(judge)
  },
}

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
    }
  }
}
