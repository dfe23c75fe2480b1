import { ServiceError } from '../errors'

/**
 * What one endpoint call inside a request decided: which grant let it run, or exactly why it
 * was refused or failed. The engine records these while it evaluates; the playground only
 * shows them.
 */
export interface CallTrace {
  endpoint: string
  /** How many calls enclose this one: 0 for the call at the request's URL. */
  depth: number
  /**
   * `allowed`: it ran to its end. `refused`: no ability (or no ability's key-value limit) let
   * the caller in. `failed`: it was let in and then answered an error of its own. `aborted`:
   * a call inside it failed, and its error is that call's.
   */
  decision: 'allowed' | 'refused' | 'failed' | 'aborted'
  /** What let it in: `secret`, `ability`, `procedure` (a stored procedure's authority). */
  grant: 'secret' | 'ability' | 'procedure' | null
  /** The ability that granted it, as written (limits included). */
  ability: string | null
  /** The error's machine-readable code, when it did not end as allowed. */
  code: string | null
  status: number | null
  /** One sentence a person reads: why it ran, or why it stopped. */
  explanation: string
}

/** Calls traced per request; a request may make thousands, the rest are counted. */
export const MAX_TRACED_CALLS = 200

/** Collects the calls of one request, in the order they start. */
export class CallTracer {
  readonly calls: CallTrace[] = []
  /** Calls that were not kept, past `MAX_TRACED_CALLS`. */
  dropped = 0
  private depth = 0
  private readonly attributed = new WeakSet<object>()

  /** A call starts; `undefined` once the trace is full (the call still runs). */
  enter(endpoint: string): CallTrace | undefined {
    const depth = this.depth++
    if (this.calls.length >= MAX_TRACED_CALLS) {
      this.dropped++
      return undefined
    }
    const entry: CallTrace = {
      endpoint,
      depth,
      decision: 'allowed',
      grant: null,
      ability: null,
      code: null,
      status: null,
      explanation: '',
    }
    this.calls.push(entry)
    return entry
  }

  /** The call ended with a value. */
  leave(): void {
    this.depth--
  }

  /**
   * The call ended with `error`. The call the error started in is `refused` or `failed`; every
   * call around it, `aborted`.
   */
  fail(entry: CallTrace | undefined, error: unknown): void {
    this.depth--
    if (!entry) return
    const known = error instanceof ServiceError ? error : undefined
    if (typeof error === 'object' && error !== null && this.attributed.has(error)) {
      entry.decision = 'aborted'
      entry.explanation = `stopped: a call inside \`${entry.endpoint}' failed`
      return
    }
    if (typeof error === 'object' && error !== null) this.attributed.add(error)
    entry.code = known?.code ?? 'fault'
    entry.status = known?.status ?? 500
    if (entry.decision !== 'refused') {
      entry.decision = 'failed'
      entry.explanation = known?.message ?? 'the engine faulted'
    }
  }
}
