import { readChaosOptions, type ChaosSettings } from './options'
import { reproFromEnvironment, type Repro } from './repro'
import type { ChaosReporter } from './reporter'
import { replayChaos, runChaos, type ChaosFrame } from './run'

/** The chaos a file's tests run under: its settings, or a repro to replay; neither, none. */
export interface ChaosChoice {
  settings?: ChaosSettings
  repro?: Repro
}

/**
 * The chaos a helper was given (`chaos`, checked now, before any test runs: an error names the
 * option that is wrong) and the repro the environment gives (`SERVICE_PLAYGROUND_CHAOS`).
 */
export function chooseChaos(where: string, given: unknown): ChaosChoice {
  const repro = reproFromEnvironment()
  return {
    ...(given === undefined ? {} : { settings: readChaosOptions(where, given) }),
    ...(repro ? { repro } : {}),
  }
}

/** Whether a file's tests run under chaos at all. */
export const chaosChosen = (choice: ChaosChoice): boolean =>
  choice.settings !== undefined || choice.repro !== undefined

/**
 * Runs one test's function `body`, named `test`, as `choice` says: under chaos `runs` times from
 * its frame (recorded by `reporter` for the file's report), once with a repro's faults when the
 * repro names it, or once as it is.
 */
export async function runChosen(
  choice: ChaosChoice,
  frame: () => Promise<ChaosFrame>,
  test: string,
  body: () => Promise<unknown>,
  reporter?: ChaosReporter,
): Promise<unknown> {
  if (choice.repro) {
    if (choice.repro.test !== test) return body()
    return replayChaos(await frame(), choice.repro.faults, body)
  }
  if (choice.settings && reporter) return reporter.run(await frame(), test, body)
  if (choice.settings) return runChaos(await frame(), test, choice.settings, body)
  return body()
}
