/**
 * Seeded chaos under Playwright (decisions 091 and 104). A Playwright fixture runs once around a
 * test's function and cannot run it again, so each test's function is wrapped as Playwright
 * registers it: the wrapper runs the function once, as it is, unless the test's `service`
 * fixture chose chaos for it (`serviceOptions.chaos`, or a repro in the environment); then it
 * runs the function as chaos says, each run from the frame the test's function began in.
 */
import { test as base, type TestInfo } from '@playwright/test'
import { runChosen, type ChaosChoice } from './chosen'
import type { ChaosFrame } from './run'

type Body = (fixtures: unknown, testInfo: TestInfo) => unknown
type CreateTest = (
  type: string,
  location: unknown,
  title: string,
  fnOrDetails: unknown,
  fn?: unknown,
) => unknown

/** What the `service` fixture of the running test chose, by the test's id. */
export interface ChaosOfTest {
  choice: ChaosChoice
  frame: () => Promise<ChaosFrame>
  /** The test's full name: its file (from the test directory), describe blocks and title. */
  name: string
}

/**
 * The tests the fixture chose chaos for, kept on the global object: the kit's ES module and its
 * CommonJS copy may both be loaded in one worker, and must see one registry and one wrapper.
 */
const KEY = Symbol.for('service-playground/playwright-chaos')
interface Shared {
  running: Map<string, ChaosOfTest>
  installed: boolean
}
const shared: Shared =
  ((globalThis as Record<symbol, unknown>)[KEY] as Shared | undefined) ??
  ((globalThis as Record<symbol, unknown>)[KEY] = { running: new Map(), installed: false })

/**
 * The test's function, wrapped: the same parameters (Playwright reads the fixtures a function
 * asks for from its text), run as the test's chaos says. The test's timeout then covers every
 * run and rerun the chaos may take.
 */
function rerunnable(body: Body): Body {
  const wrapped = function (this: unknown, fixtures: unknown, testInfo: TestInfo) {
    const chaos = shared.running.get(testInfo.testId)
    if (!chaos) return body.call(this, fixtures, testInfo)
    const { settings } = chaos.choice
    if (settings && testInfo.timeout > 0) {
      testInfo.setTimeout(testInfo.timeout * (settings.runs + settings.maxReruns + 1))
    }
    return runChosen(chaos.choice, chaos.frame, chaos.name, async () =>
      body.call(this, fixtures, testInfo),
    )
  }
  Object.defineProperty(wrapped, 'toString', { value: () => body.toString() })
  return wrapped
}

/**
 * Wraps the function of every test registered from now on (`test`, `test.only`, `test.fail`,
 * of any test type, ours or extended from it). Playwright has no public hook for it: its test
 * type's `_createTest`, reached from the symbol it keeps on `test`, is wrapped once. Whether
 * it could be is what `chaosInstalled` says: chaos is refused, naming why, when it was not.
 */
export function installChaos(): void {
  if (shared.installed) return
  const symbol = Object.getOwnPropertySymbols(base).find((s) => s.description === 'testType')
  const impl = symbol ? ((base as unknown as Record<symbol, unknown>)[symbol] as object) : null
  const proto = impl ? (Object.getPrototypeOf(impl) as { _createTest?: CreateTest }) : null
  const create = proto?._createTest
  if (!proto || typeof create !== 'function') return
  proto._createTest = function (this: unknown, type, location, title, fnOrDetails, fn) {
    if (typeof fnOrDetails === 'function') {
      return create.call(this, type, location, title, rerunnable(fnOrDetails as Body), fn)
    }
    const body = typeof fn === 'function' ? rerunnable(fn as Body) : fn
    return create.call(this, type, location, title, fnOrDetails, body)
  }
  shared.installed = true
}

/**
 * Runs the test `testInfo` names under `chaos` while `use` runs (the test's function inside
 * it): nothing of it is left for the next test, which runs without chaos unless its own fixture
 * chooses it.
 */
export async function withChaos<T>(
  testInfo: TestInfo,
  chaos: ChaosOfTest,
  use: () => Promise<T>,
): Promise<T> {
  if (!shared.installed) {
    throw new Error(
      `serviceOptions.chaos needs Playwright's test type to let the kit wrap each test's function (its _createTest), as @playwright/test 1.40 to ${PLAYWRIGHT_CHECKED} does; this one does not`,
    )
  }
  shared.running.set(testInfo.testId, chaos)
  try {
    return await use()
  } finally {
    shared.running.delete(testInfo.testId)
  }
}

/** The newest @playwright/test the wrapper was checked against. */
const PLAYWRIGHT_CHECKED = '1.65'
