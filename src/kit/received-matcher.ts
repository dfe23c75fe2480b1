import type { ReceivedRequest } from '../client/journal'
import { checkReceived, type ReceivedExpectation } from '../client/received-check'

/**
 * `expect(service).toHaveReceived(endpoint, expected?)`, for Vitest's and Jest's `expect.extend`:
 * `service` is anything with `requests()` (what `useService` or `startService` returned). Over
 * `serve` the journal is read over HTTP: the assertion is then awaited.
 */
export function toHaveReceived(
  received: unknown,
  endpoint: string | RegExp,
  expected?: ReceivedExpectation,
) {
  if (typeof received !== 'object' || received === null || !('requests' in received)) {
    return {
      pass: false,
      message: () => 'toHaveReceived expects the service useService or startService returned',
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
}
