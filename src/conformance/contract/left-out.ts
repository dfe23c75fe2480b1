import { headerOf } from '../../client/exchange'
import type { ExchangeRecord } from '../../engine'

/**
 * Why an exchange cannot be replayed (an injected fault, a strict refusal, a body past the
 * journal's cut), or `undefined` when it can.
 */
export function leftOut(r: ExchangeRecord): string | undefined {
  if (r.response.status === 0)
    return 'it failed as a network error (a fault injected through the control plane)'
  if (
    headerOf(r.response.headers, 'x-fault') !== undefined ||
    r.trace.outcome.code === 'injected_fault'
  ) {
    return 'its answer was a fault injected through the control plane'
  }
  if (r.trace.outcome.code === 'strict') {
    return 'strict mode refused it (verifying reports every request strict mode would refuse)'
  }
  if (r.response.body?.truncated) {
    return `its answer (${r.response.body.bytes} bytes) is longer than the exchange journal keeps`
  }
  return undefined
}
