/**
 * The Playwright fixture's options: how a test's service is made (`serviceOptions`), the
 * `serve` its workers use (`serveTarget`, or the environment), and the fixture's value.
 */
import type { StartServiceOptions } from '../node'
import { trimBaseUrl } from '../client/wire'
import { DEFAULT_JOURNAL } from '../client/journal'
import type { ContractRecorder } from './contract'
import type { RemoteService } from './remote'
import type { ChaosOptions } from './chaos/options'

/** A running `serve` the workers open their accounts on. */
export interface ServeTarget {
  /** The server's URL, as `serve` printed it: `http://127.0.0.1:8787`. */
  url: string
  /** The server's control token (`serve --control-token`, or the one it printed). */
  controlToken: string
}

/**
 * How the service of a test is made. Against a `serve` (see `serveTarget`), only `baseUrl`,
 * `serviceName` and `journal` apply: with `baseUrl`, the page's requests to it are passed on to
 * the worker's account (for an app whose host is hard-coded); without it, the app calls
 * `service.baseUrl`.
 */
export type ServiceFixtureOptions = Pick<
  StartServiceOptions,
  'baseUrl' | 'serviceName' | 'secrets' | 'clock' | 'limits' | 'strict' | 'journal'
> & {
  /**
   * Records every passing test that uses the service into this contract file (relative to the
   * Playwright config's directory), each as its own case, at the test's end before the reset;
   * a test that made no request to the service is left out.
   */
  contract?: string
  /**
   * Tallies the authorization coverage of every test (decision 057) into this file (relative to
   * the Playwright config's directory), added up across the workers of the run:
   * `coverage: 'service-coverage.json'`, read by `npx service-playground coverage`.
   */
  coverage?: string
  /**
   * Seeded chaos (decisions 091 and 104), as `useService({ chaos })` under Vitest and Jest: each
   * test's function runs `runs` times, each run from the frame it began in (after its
   * `beforeEach` hooks), its calls to the service faulted as the seed says; a failure is shrunk
   * to a 1-minimal list of faults and fails the test with a one-line repro. In process and over
   * `serve`.
   */
  chaos?: ChaosOptions
}

/** The service of one test. */
export type ServiceFixture = RemoteService & {
  /** Records this test's exchanges so far into a contract file: `contract.save('contracts/x.json')`. */
  readonly contract: ContractRecorder
}

/** The `serve` named by `SERVICE_PLAYGROUND_URL` and `SERVICE_PLAYGROUND_CONTROL_TOKEN`, if any. */
export function serveTargetFromEnvironment(): ServeTarget | undefined {
  const url = process.env.SERVICE_PLAYGROUND_URL
  const controlToken = process.env.SERVICE_PLAYGROUND_CONTROL_TOKEN
  if (!url) return undefined
  if (!controlToken) {
    throw new Error(
      'SERVICE_PLAYGROUND_URL is set but SERVICE_PLAYGROUND_CONTROL_TOKEN is not: give the control token serve printed (or started with)',
    )
  }
  return { url: trimBaseUrl(url), controlToken }
}

/** `startService`'s options for a fixture's: those given, the journal the kit keeps. */
export const startOptions = (options: ServiceFixtureOptions): StartServiceOptions => ({
  journal: options.journal ?? DEFAULT_JOURNAL,
  ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  ...(options.serviceName ? { serviceName: options.serviceName } : {}),
  ...(options.secrets?.length ? { secrets: options.secrets } : {}),
  ...(options.clock ? { clock: options.clock } : {}),
  ...(options.limits ? { limits: options.limits } : {}),
  ...(options.strict !== undefined ? { strict: options.strict } : {}),
})
