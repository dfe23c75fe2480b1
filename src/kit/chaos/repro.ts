import { readFaultText, type ChaosFault } from './address'
import { CHAOS_KINDS } from './options'

/** The environment variable a repro is given in: the suite itself needs no change. */
export const REPRO_VARIABLE = 'SERVICE_PLAYGROUND_CHAOS'

/** A repro as read: the test it reruns and exactly the faults it meets. */
export interface Repro {
  seed: string
  run: number
  test: string
  faults: ChaosFault[]
}

/** Reads a repro a chaos failure printed (a JSON line), or says what is wrong with it. */
export function readRepro(text: string): Repro {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new Error(`${REPRO_VARIABLE} must be the repro a chaos failure printed, a JSON line`)
  }
  const { seed, run, test, faults } = (value ?? {}) as Record<string, unknown>
  if (
    typeof seed !== 'string' ||
    typeof run !== 'number' ||
    typeof test !== 'string' ||
    !Array.isArray(faults) ||
    !faults.every((fault) => typeof fault === 'string')
  ) {
    throw new Error(
      `${REPRO_VARIABLE} must hold seed (a text), run (a number), test (its name) and faults (a list of texts)`,
    )
  }
  return {
    seed,
    run,
    test,
    faults: (faults as string[]).map((fault) => readFaultText(fault, CHAOS_KINDS)),
  }
}

/** The repro the environment gives, if any (read once, when a file's service is set up). */
export function reproFromEnvironment(): Repro | undefined {
  const text = process.env[REPRO_VARIABLE]
  return text ? readRepro(text) : undefined
}
