import { mask } from '../shared/masked'
import type { FaultKind, FaultRule } from './operator-api'

const FAULT_WORDS: Record<FaultKind, string> = {
  status: 'an error status',
  delay: 'a delay',
  hang: 'a hang',
  network: 'a dropped connection',
  reset: 'a connection dropped mid-body',
  truncate: 'a body cut in half',
  respond: 'an answer given in advance',
}

/** A fault in a line: `503 to keyv.get, with one token, next 2 calls, half of them`. */
export function describeFault(rule: FaultRule): string {
  const what =
    rule.kind === 'status'
      ? `${rule.status}${rule.status === 429 ? ` (retry-after ${rule.retryAfter} s)` : ''}`
      : rule.kind === 'delay'
        ? `a delay of ${rule.delayMs} ms`
        : rule.kind === 'hang'
          ? `a hang of up to ${rule.delayMs} ms`
          : rule.kind === 'respond' && rule.answer
            ? `a ${rule.answer.status} answered in advance`
            : FAULT_WORDS[rule.kind]
  const scope = [
    rule.endpoint ? `to ${rule.endpoint}` : 'to any endpoint',
    rule.token ? `with token ${mask(rule.token)}` : 'with any token',
  ]
  const times =
    rule.count === null
      ? 'every call until cleared'
      : `the next ${rule.count} ${rule.count === 1 ? 'call' : 'calls'}`
  const chance = rule.probability < 1 ? `, ${Math.round(rule.probability * 100)}% of the time` : ''
  return `${what} ${scope.join(' ')}: ${times}${chance}`
}
