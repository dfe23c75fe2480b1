import type { AnswerOptions, Checkpoint, FaultOptions, FaultRule, SecretView } from '../engine'
import type { BranchInfo, BranchList } from '../engine/history/history'
import type { Recording } from '../engine/history/recording'
import type {
  DiffReport,
  LeastPrivilegeReport,
  ReachReport,
  SimulateCall,
  SimulateReport,
} from '../engine/insight'
import type { AuthorizeOptions } from './authorize'
import type { ReceivedRequest, RequestFilter } from './journal'

/** `T` where the service runs in this process (answered at once), a promise of it over the wire. */
export type Held<InProcess extends boolean, T> = InProcess extends true ? T : Promise<T>

/** Which calls a given answer meets, and how often (as a fault's rule says). */
export type RespondOptions = Pick<
  FaultOptions,
  'once' | 'count' | 'token' | 'delayMs' | 'probability'
>

/** The rule `respond` adds. */
export const respondRule = (
  endpoint: string,
  answer: AnswerOptions,
  options: RespondOptions = {},
): FaultOptions => ({ ...options, kind: 'respond', endpoint, answer })

/**
 * A service a test controls, declared once for wherever it runs: the Node API's `Service` and
 * the Vitest helper's handle (`InProcess`: faults and the journal answer at once) and the
 * Playwright fixture's service over the wire (everything a promise).
 */
export interface ServiceControls<InProcess extends boolean> {
  /** Where the service answers. */
  readonly baseUrl: string
  /** The service's own name (content types, error wording). */
  readonly serviceName: string
  /** The first secret key: a bearer token that reaches every endpoint. */
  readonly secret: string
  /** Calls `auth.create` with the secret (or `options.token`) and returns the authorization. */
  authorize(abilities: string[], options?: AuthorizeOptions): Promise<string>
  createSecret(key?: string): Promise<SecretView>
  /** Rolls now, or at `at` (Unix seconds on the service's clock); returns the replacement. */
  rollSecret(id: string, at?: number): Promise<SecretView>
  listSecrets(): Promise<SecretView[]>
  /** Moves the service's clock forward; returns the new time in Unix seconds. */
  advanceClock(seconds: number): Promise<number>
  /** Unix seconds on the service's clock. */
  now(): Promise<number>
  /** Adds a fault; the next matching calls meet it. Returns the rule, with its `id`. */
  fault(options: FaultOptions): Held<InProcess, FaultRule>
  /**
   * Answers calls to `endpoint` (an endpoint, or every endpoint of a package) with `answer` in
   * place of the real one, as msw's `server.use` does: every matching call until the test's
   * frame ends (or `clearFaults`), or `{ once: true }`. `answer.body`: a text as it is, any
   * other value as JSON. A rule like a fault's (kind `respond`), journaled with `x-fault: respond`.
   */
  respond(
    endpoint: string,
    answer: AnswerOptions,
    options?: RespondOptions,
  ): Held<InProcess, FaultRule>
  /** Removes every fault and given answer (or the one with this id). */
  clearFaults(id?: string): Held<InProcess, void>
  /** The requests the service received, oldest first, those matching `filter` when given. */
  requests(filter?: RequestFilter): Held<InProcess, ReceivedRequest[]>
  /**
   * Back to the state the service started in: the same secret keys, the clock where it started,
   * no keys or procedures, no faults, strict mode and the rate limit as configured with an empty
   * window, an empty journal. Checkpoints are kept.
   */
  reset(): Promise<void>
  /**
   * Keeps the whole state (keys, procedures, secrets, clock, faults, strict mode, rate window,
   * journal) on top of the account's stack of checkpoints (decision 065).
   */
  checkpoint(): Promise<Checkpoint>
  /** Puts back the state at checkpoint `id`; it and every later one are removed. */
  restore(id: string): Promise<void>
  /**
   * Takes the account (keys, procedures, secrets, clock, faults, strict mode, rate window,
   * journal) back to just before `exchange` — its id, or a request `requests()` gave — on a new
   * branch named `name`; the timeline it leaves stays a branch (decision 086). Needs the
   * journal, which the kit keeps on.
   */
  rewind(exchange: number | { id: number }, name?: string): Promise<BranchInfo>
  /** The account's branches, the one it is on, and the oldest exchange a rewind reaches. */
  branches(): Promise<BranchList>
  /** Onto branch `id`, as it was left. */
  switchBranch(id: string): Promise<BranchInfo>
  /**
   * The account's recording from exchange `from` (the oldest it keeps by default) to its
   * newest: what `npx service-playground replay` sends again, byte for byte compared, to any
   * account of ours. It holds the account's secrets: keep it private, as an export.
   */
  recording(from?: number): Promise<Recording>
  /** What `token` can do, at `at` (Unix seconds on the service's clock) or now (decision 055). */
  reach(token: string, at?: number): Promise<ReachReport>
  /** The decision for each call as a real call would meet it, writing nothing. */
  simulate(token: string, calls: SimulateCall[], at?: number): Promise<SimulateReport>
  /** What `b` reaches that `a` does not, and the reverse, each with a call that proves it. */
  diff(a: string, b: string, at?: number): Promise<DiffReport>
  /**
   * The narrowest token for each token's use in the journal (`token`'s alone when given), each
   * proven by replaying its calls and by diff (decision 090).
   */
  leastPrivilege(token?: string): Promise<LeastPrivilegeReport>
}

/** The exchange a rewind names: its id, given as it is or as a request `requests()` gave. */
export const exchangeId = (exchange: number | { id: number }): number =>
  typeof exchange === 'number' ? exchange : exchange.id

/** The controls every handle forwards: `ServiceControls` but its three values. */
export const CONTROL_METHODS = [
  'authorize',
  'createSecret',
  'rollSecret',
  'listSecrets',
  'advanceClock',
  'now',
  'fault',
  'respond',
  'clearFaults',
  'requests',
  'reset',
  'checkpoint',
  'restore',
  'rewind',
  'branches',
  'switchBranch',
  'recording',
  'reach',
  'simulate',
  'diff',
  'leastPrivilege',
] as const satisfies ReadonlyArray<keyof ServiceControls<boolean>>

type ControlMethod = (typeof CONTROL_METHODS)[number]
/** Every method of `ServiceControls` is in `CONTROL_METHODS`: a new one fails to compile here. */
type Unlisted = Exclude<
  keyof ServiceControls<boolean>,
  ControlMethod | 'baseUrl' | 'serviceName' | 'secret'
>
const everyMethodListed: [Unlisted] extends [never] ? true : Unlisted = true
void everyMethodListed

/** The methods of a service a test controls, each one forwarded to the service it stands for. */
export type Controls<InProcess extends boolean> = Pick<ServiceControls<InProcess>, ControlMethod>

/**
 * The controls of the service `source` gives at each call (it may throw when there is none
 * yet): answered at once from a service in this process, as promises from one being opened.
 * Each handle spreads them and puts its own beside them, as msw's handlers spread one resolver.
 */
export function controlsOver(source: () => ServiceControls<true>): Controls<true>
export function controlsOver(source: () => Promise<ServiceControls<false>>): Controls<false>
export function controlsOver(
  source: () => ServiceControls<boolean> | Promise<ServiceControls<boolean>>,
): Controls<boolean> {
  const forward =
    (name: ControlMethod) =>
    (...args: unknown[]): unknown => {
      const call = (service: ServiceControls<boolean>) =>
        (service[name] as (...given: unknown[]) => unknown)(...args)
      const service = source()
      return service instanceof Promise ? service.then(call) : call(service)
    }
  return Object.fromEntries(CONTROL_METHODS.map((name) => [name, forward(name)])) as never
}
