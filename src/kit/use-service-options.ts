import { checkOptions, START_SERVICE_OPTIONS, type StartServiceOptions } from '../node'
import { checkSecrets } from '../client/options'
import { chooseChaos, type ChaosChoice } from './chaos/chosen'
import type { ChaosOptions } from './chaos/options'
import type { ServeTarget } from './account-service'

/** `useService`'s options, the same for Vitest and Jest: `startService`'s, and these. */
export interface UseServiceOptions extends StartServiceOptions {
  /**
   * Records every passing test of the file into this contract file (relative to Vitest's root;
   * under Jest to the working directory, or to `SERVICE_PLAYGROUND_CONTRACT_DIR`), each as its
   * own case, at the test's end before its frame is undone; a test that made no request to the
   * service is left out.
   */
  contract?: string
  /**
   * Tallies the authorization coverage of every test (decision 057) into this file (relative as
   * `contract`), added up across the files and workers of the run:
   * `coverage: 'service-coverage.json'`, read by `npx service-playground coverage`.
   */
  coverage?: string
  /**
   * An account of its own for this file on a running `serve`, in place of a service in this
   * process: only `serviceName` (learnt from the server when not given), `journal`,
   * `contract` and `coverage` apply then. `await service.ready` before reading `baseUrl` or `secret`.
   */
  serve?: ServeTarget
  /**
   * Seeded chaos (decision 091): every test of the file (but a concurrent one under Jest) runs
   * `runs` times, each run from the test's own frame (after its `beforeEach` hooks) with faults
   * addressed by the seed; a failure is shrunk to a 1-minimal list of faulted exchanges and
   * fails the test with a one-line repro. In process and over `serve`.
   */
  chaos?: ChaosOptions
}

/** The options `useService` adds to `startService`'s. */
const KIT_OPTIONS = ['contract', 'coverage', 'serve', 'chaos'] as const satisfies ReadonlyArray<
  keyof UseServiceOptions
>
/** Every option `UseServiceOptions` adds is in `KIT_OPTIONS`: one left out fails to compile. */
type Unlisted = Exclude<
  keyof UseServiceOptions,
  keyof StartServiceOptions | (typeof KIT_OPTIONS)[number]
>
const everyOptionListed: [Unlisted] extends [never] ? true : Unlisted = true
void everyOptionListed

/** The options `useService` takes: anything else is refused, naming these. */
export const USE_SERVICE_OPTIONS: ReadonlySet<string> = new Set([
  ...START_SERVICE_OPTIONS,
  ...KIT_OPTIONS,
])

/** Refuses options `useService` does not take, and secrets it cannot use; the chaos chosen. */
export function checkUseServiceOptions(options: UseServiceOptions): ChaosChoice {
  checkOptions('useService', options, USE_SERVICE_OPTIONS)
  checkSecrets('useService', options.secrets)
  return chooseChaos('useService', options.chaos)
}
