import { addresser, faultText, type ChaosFault } from './address'
import type { ChaosSettings } from './options'
import { HungCall, listed, runPlan, type ChaosTarget } from './plan'
import { ddmin } from './shrink'
import { simplify } from './simplify'

/** What a chaos run needs beside the service: the test's frame, to run it again from its start. */
export interface ChaosFrame extends ChaosTarget {
  checkpoint(): Promise<{ id: string }>
  restore(id: string): Promise<void>
}

/** A failure a chaos run found, shrunk: what the error a test fails with carries. */
export interface ChaosFinding {
  test: string
  seed: string
  run: number
  /** The faults the failing run met, in order. */
  met: ChaosFault[]
  /** A 1-minimal sublist of `met` that still fails (`minimal` false: the budget ran out first). */
  faults: ChaosFault[]
  minimal: boolean
  /** Reruns the shrinking took (the check without any fault included). */
  reruns: number
  /** Milliseconds the shrinking took, that check included. */
  shrinkMs: number
  /** The one-line repro: `SERVICE_PLAYGROUND_CHAOS=<repro> npx vitest run <file> -t <title>`. */
  repro: string
  /** The failure the run met first. */
  cause: unknown
}

/** The error a test fails with when chaos finds a failure: its message says the repro. */
export class ChaosFailure extends Error {
  constructor(readonly finding: ChaosFinding) {
    const { cause, faults, met, reruns, run, minimal } = finding
    const first = cause instanceof Error ? cause.message : String(cause)
    super(
      [
        `chaos: run ${run} failed: ${first}`,
        `  shrunk from ${met.length} faults to ${faults.length}${minimal ? ' (1-minimal)' : ' (the rerun budget ran out first)'} in ${reruns} reruns: ${faults.map(faultText).join(' ')}`,
        `  repro: SERVICE_PLAYGROUND_CHAOS='${finding.repro}'`,
      ].join('\n'),
      { cause },
    )
    this.name = 'ChaosFailure'
  }
}

/** The repro of a list of faults for one test: `seed=<seed> run=<run> test=<name> faults=…`. */
export const reproOf = (seed: string, run: number, test: string, faults: ChaosFault[]): string =>
  JSON.stringify({ seed, run, test, faults: faults.map(faultText) })

/** Runs `body` once with the faults `faultAt` addresses; the faults it met, and its failure. */
async function once(
  frame: ChaosFrame,
  body: () => Promise<unknown>,
  faultAt: (endpoint: string, nth: number) => ChaosFault | undefined,
): Promise<{ met: ChaosFault[]; failure?: { error: unknown } }> {
  const { planner, met, hung } = runPlan(frame, faultAt)
  frame.plan(planner)
  try {
    await body()
    return hung[0] ? { met, failure: { error: new HungCall(hung[0]) } } : { met }
  } catch (error) {
    return { met, failure: { error: hung[0] ? new HungCall(hung[0]) : error } }
  } finally {
    frame.plan(null)
  }
}

/**
 * Runs `body` (a test's own function) `settings.runs` times, each from the frame it started in,
 * each run with the faults its seed addresses; the first failing run is shrunk (ddmin) and
 * thrown as a `ChaosFailure`. A failure without any fault is the test's own, thrown as it is.
 */
export async function runChaos(
  frame: ChaosFrame,
  test: string,
  settings: ChaosSettings,
  body: () => Promise<unknown>,
): Promise<void> {
  let start = await frame.checkpoint()
  const fromStart = async <T>(fn: () => Promise<T>): Promise<T> => {
    await frame.restore(start.id)
    start = await frame.checkpoint()
    return fn()
  }
  for (let run = 0; run < settings.runs; run++) {
    const result = await fromStart(() => once(frame, body, addresser(settings, run, test)))
    if (!result.failure) continue
    const shrinking = performance.now()
    const clean = await fromStart(() => once(frame, body, () => undefined))
    if (clean.failure) throw clean.failure.error
    const fails = async (subset: readonly ChaosFault[]) =>
      (await fromStart(() => once(frame, body, listed(subset)))).failure !== undefined
    const shrunk = await ddmin(result.met, fails, settings.maxReruns)
    // Each fault made as simple as the failure allows; a list that changed is checked (and cut)
    // again, so what is reported is 1-minimal as it reads.
    const simple = await simplify(shrunk.items, fails, settings.maxReruns - shrunk.tries)
    let tries = shrunk.tries + simple.tries
    const changed = simple.faults.some(
      (fault, i) => faultText(fault) !== faultText(shrunk.items[i]!),
    )
    if (changed) {
      const again = await ddmin(simple.faults, fails, settings.maxReruns - tries)
      tries += again.tries
      shrunk.items = again.items
      shrunk.minimal = shrunk.minimal && again.minimal
    }
    throw new ChaosFailure({
      test,
      seed: settings.seed,
      run,
      met: result.met,
      faults: shrunk.items,
      minimal: shrunk.minimal,
      reruns: tries + 1,
      shrinkMs: performance.now() - shrinking,
      repro: reproOf(settings.seed, run, test, shrunk.items),
      cause: result.failure.error,
    })
  }
  await frame.restore(start.id)
}

/** Runs `body` once with exactly the faults a repro lists; its failure thrown as it is. */
export async function replayChaos(
  frame: ChaosFrame,
  faults: ChaosFault[],
  body: () => Promise<unknown>,
): Promise<ChaosFault[]> {
  const result = await once(frame, body, listed(faults))
  if (result.failure) throw result.failure.error
  return result.met
}
