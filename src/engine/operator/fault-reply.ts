import { utf8 } from '../bytes'
import { ServiceError } from '../errors'
import type { Reply, ReplyFault } from '../wire/response'
import type { FaultRule, FaultStatus } from './fault-rule'

/** A fault the engine answers with in place of the call's own answer. */
export class InjectedFault extends ServiceError {
  constructor(status: FaultStatus, headers: Record<string, string>) {
    const words: Record<FaultStatus, string> = {
      408: 'timeout',
      429: 'rate limited',
      500: 'internal error',
      502: 'bad gateway',
      503: 'service unavailable',
      504: 'gateway timeout',
    }
    super(
      status,
      'injected_fault',
      `${words[status]} (a fault injected through the control plane)`,
      {
        ...headers,
        'x-fault': String(status),
      },
    )
  }
}

/** What meeting `rule` does to the way the answer reaches the client, as plain data. */
export function replyFault(rule: FaultRule): ReplyFault {
  const ending =
    rule.kind === 'network' || rule.kind === 'hang'
      ? 'drop'
      : rule.kind === 'reset'
        ? 'break'
        : 'answer'
  return { kind: rule.kind, delayMs: rule.delayMs, ending }
}

/**
 * Whether the endpoint runs at all under `rule`: a `status` fault answers in its place (thrown,
 * as the error it answers with), `network` and `hang` answer nothing; the other kinds meet the
 * call's own answer.
 */
export function runsUnder(rule: FaultRule): boolean {
  if (rule.kind === 'status') {
    const headers: Record<string, string> =
      rule.status === 429 ? { 'retry-after': String(rule.retryAfter) } : {}
    throw new InjectedFault(rule.status!, headers)
  }
  return rule.kind !== 'network' && rule.kind !== 'hang' && rule.kind !== 'respond'
}

/**
 * The answer as a fault leaves it: none for a dropped connection (status 0), the first half of
 * its body for `reset` and `truncate`, and `x-fault` saying the fault either way (kept in the
 * journal even when it never reaches the client).
 */
export function faulted(reply: Reply, fault: ReplyFault): Reply {
  if (fault.ending === 'drop') {
    return { status: 0, headers: { 'x-fault': fault.kind }, body: '', fault }
  }
  const headers = { ...reply.headers }
  headers['x-fault'] ??= fault.kind
  const cut = fault.kind === 'reset' || fault.kind === 'truncate'
  return { status: reply.status, headers, body: cut ? half(reply.body) : reply.body, fault }
}

function half(body: string | Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  const bytes = typeof body === 'string' ? utf8(body) : body
  return bytes.slice(0, Math.floor(bytes.length / 2))
}
