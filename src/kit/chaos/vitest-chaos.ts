import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { runChosen, type ChaosChoice } from './chosen'
import type { ChaosReporter } from './reporter'
import type { ChaosFrame } from './run'

interface TaskLike {
  type: string
  name: string
  concurrent?: boolean
  tasks?: TaskLike[]
}
type Fn = () => Promise<unknown>
interface RunnerFns {
  getFn(task: TaskLike): Fn | undefined
  setFn(task: TaskLike, fn: Fn): void
}

/** `@vitest/runner` as Vitest itself loaded it (resolved from Vitest's package). */
async function runnerFns(): Promise<RunnerFns> {
  const vitest = createRequire(import.meta.url).resolve('vitest')
  const runner = createRequire(vitest).resolve('@vitest/runner')
  const loaded = (await import(pathToFileURL(runner).href)) as Partial<RunnerFns>
  if (!loaded.getFn || !loaded.setFn) {
    throw new Error(
      'useService: chaos needs a Vitest whose runner exposes getFn and setFn (4.1 or later)',
    )
  }
  return loaded as RunnerFns
}

/**
 * Wraps every (not concurrent) test of `file` so that its own function runs under chaos: each
 * run from the frame the test started in (after its `beforeEach` hooks), a failure shrunk and
 * thrown with its repro and recorded by `reporter`. With `repro`, only the test it names runs, once, with its faults.
 */
export async function chaosTests(
  file: TaskLike,
  frame: () => Promise<ChaosFrame>,
  testName: () => string,
  chaos: ChaosChoice,
  reporter?: ChaosReporter,
): Promise<void> {
  const { getFn, setFn } = await runnerFns()
  const visit = (suite: TaskLike) => {
    for (const task of suite.tasks ?? []) {
      if (task.type === 'suite') visit(task)
      if (task.type !== 'test' || task.concurrent) continue
      const body = getFn(task)
      if (!body) continue
      setFn(task, () => runChosen(chaos, frame, testName(), body, reporter))
    }
  }
  visit(file)
}
