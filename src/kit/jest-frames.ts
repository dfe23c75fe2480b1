/**
 * Frames under Jest, from the events of jest-circus (Jest's runner since Jest 27), the ones a
 * custom environment's `handleTestEvent` receives: each awaited, each where no hook of the user
 * can come before or after it. Jest 30 keeps its handlers on the test file's global; Jest 29
 * keeps them inside its own copy of its state module, out of a test file's reach, so there the
 * same events are given by hooks placed first and last in the lists its state holds.
 */
import type { ContractSource } from './contract'
import { testLink } from './test-link'
import { AsyncLocalStorage } from 'node:async_hooks'
import { relative } from 'node:path'
import type { Checkpoint } from '../engine'
import type { FrameParts, TestScope } from './in-process-handle'
import { registerInsight } from './reach-matchers'
import { testRecords, type RecordOptions } from './test-records'
import { chaosChosen, runChosen, type ChaosChoice } from './chaos/chosen'
import { chaosReporter } from './chaos/reporter'

interface CircusTest {
  type: 'test'
  name: string
  concurrent: boolean
  fn?: (this: unknown, ...args: unknown[]) => unknown
  parent: CircusBlock
  errors: unknown[]
}
interface CircusHook {
  type: 'beforeAll' | 'afterAll' | 'beforeEach' | 'afterEach'
  fn: () => unknown
  parent: CircusBlock
}
interface CircusBlock {
  type: 'describeBlock'
  name: string
  parent?: CircusBlock
  children: Array<CircusBlock | CircusTest>
  hooks: CircusHook[]
}
interface CircusEvent {
  name: string
  describeBlock?: CircusBlock
  test?: CircusTest
}
interface CircusState {
  rootDescribeBlock: CircusBlock
  currentDescribeBlock: CircusBlock
  currentlyRunningTest: CircusTest | null
  unhandledErrors: unknown[]
}
type Handler = (event: CircusEvent, state: CircusState) => void | Promise<void>

/** The key jest-circus 30 keeps its event handlers under, on the test file's global. */
const EVENT_HANDLERS = Symbol.for('EVENT_HANDLERS')
/** The description of the (unregistered) symbol jest-circus keeps its state under. */
const STATE = 'JEST_STATE_SYMBOL'

interface Events {
  subscribe(handler: Handler): void
  /**
   * Whether concurrent tests are started before their block's `beforeAll` hooks have run (Jest
   * 29 starts every one of a file at its start): then each also hears `block_ready`, once its
   * block's `beforeAll` hooks are done, and waits for it.
   */
  startEarly: boolean
}

/**
 * How a handler hears jest-circus's events: added to its list (Jest 30), or, where the list is
 * out of reach (Jest 29), given the same events by hooks that stand first and last where each
 * event stands: `undefined` when jest-circus is not running this file.
 */
function circusEvents(): Events | undefined {
  const global = globalThis as Record<symbol, unknown>
  const handlers = global[EVENT_HANDLERS]
  if (Array.isArray(handlers)) {
    return { subscribe: (handler) => void handlers.push(handler), startEarly: false }
  }
  const key = Object.getOwnPropertySymbols(global).find((symbol) => symbol.description === STATE)
  const state = key && (global[key] as CircusState | undefined)
  if (!state?.rootDescribeBlock) return undefined
  return { subscribe: (handler) => hookEvents(state, handler), startEarly: true }
}

/**
 * The events from hooks (Jest 29): its state's hook lists are read as each block and test
 * runs, and every block and test is defined once the file's first `beforeAll` runs. There,
 * `run_start`; then each block gets a first `beforeAll` (`run_describe_start`), a last one
 * (`block_ready`) and a last `afterAll` (`run_describe_finish`), and the file a first
 * `beforeEach` (`test_started`) and a last `afterEach` (`test_done`); `run_finish` in the file's
 * `afterAll`.
 */
function hookEvents(state: CircusState, handler: Handler): void {
  const { beforeAll, afterAll } = globalThis as unknown as Record<
    'beforeAll' | 'afterAll',
    (fn: () => unknown) => void
  >
  const root = state.rootDescribeBlock
  const start = async () => {
    // A hook as jest-circus made this one, doing something else (its timeout, its stack).
    const template = root.hooks.find((hook) => hook.fn === start)!
    const hook = (type: CircusHook['type'], parent: CircusBlock, fn: () => unknown) => ({
      ...template,
      type,
      parent,
      fn,
    })
    const frame = (block: CircusBlock) => {
      for (const child of block.children) {
        if (child.type !== 'describeBlock') continue
        child.hooks.unshift(
          hook('beforeAll', child, () =>
            handler({ name: 'run_describe_start', describeBlock: child }, state),
          ),
        )
        child.hooks.push(
          hook('beforeAll', child, () =>
            handler({ name: 'block_ready', describeBlock: child }, state),
          ),
          hook('afterAll', child, () =>
            handler({ name: 'run_describe_finish', describeBlock: child }, state),
          ),
        )
        frame(child)
      }
    }
    frame(root)
    root.hooks.unshift(
      hook('beforeEach', root, () =>
        handler({ name: 'test_started', test: state.currentlyRunningTest! }, state),
      ),
    )
    root.hooks.push(
      hook('afterEach', root, () =>
        handler({ name: 'test_done', test: state.currentlyRunningTest! }, state),
      ),
    )
    await handler({ name: 'run_start' }, state)
  }
  beforeAll(start)
  afterAll(() => handler({ name: 'run_finish' }, state))
}

/**
 * The frames of a test file under Jest:
 * - a `describe` block: a checkpoint where it starts (`run_describe_start`, before its own
 *   `beforeAll` hooks), restored where it ends (`run_describe_finish`, after its `afterAll`);
 * - a test: a checkpoint once it is known to run (`test_started`, before every `beforeEach`),
 *   restored when it is done (`test_done`, after every `afterEach`, the file's own included);
 * - a concurrent test (Jest runs no `beforeEach`/`afterEach` for them): its function runs
 *   inside `parts.concurrent`, a copy of the service its own while it runs in process, or one
 *   frame shared with its running siblings over `serve`.
 * The file's own frame is the service itself, started and stopped by the caller's hooks. A test
 * is recorded (`options.contract`, `options.coverage`) when it is done, before its frame is undone.
 * Under `chaos`, a test's function (not a concurrent one's) runs as the chaos runner says: `runs`
 * times, each from the frame it began in, after its `beforeEach` hooks.
 */
export function jestFrames(
  where: string,
  options: RecordOptions = {},
  chaos: ChaosChoice = {},
): {
  scope(): TestScope | undefined
  frame(parts: FrameParts): void
} {
  const events = circusEvents()
  if (!events) {
    throw new Error(
      `${where}: Jest's runner (jest-circus) is not running this file, and its events give describe blocks and tests their frames: call it from a test file or a setupFilesAfterEnv file, without \`testRunner: 'jest-jasmine2'\``,
    )
  }
  const running = new AsyncLocalStorage<TestScope>()
  let current: TestScope | undefined
  return {
    scope: () => running.getStore() ?? current,
    frame({ framed, concurrent, source, insight, chaos: chaosFrame }) {
      const records = testRecords(source, options)
      // A chaos run's report, printed (and written) when the file is done.
      const reporter = chaos.settings && chaosReporter(source, chaos.settings)
      const blocks = new Map<CircusBlock, Checkpoint>()
      const tests = new Map<CircusTest, Checkpoint>()
      const unregister = registerInsight({ ...insight, checked: records.checked })
      // Where concurrent tests start early, each waits for its block's fixtures.
      const ready = new Map<CircusBlock, { promise: Promise<void>; resolve(): void }>()
      const readiness = (block: CircusBlock) => {
        let entry = ready.get(block)
        if (!entry) {
          let resolve!: () => void
          const promise = new Promise<void>((done) => (resolve = done))
          entry = { promise, resolve }
          ready.set(block, entry)
        }
        return entry
      }
      const handler: Handler = async (event, state) => {
        const { describeBlock: block, test } = event
        try {
          switch (event.name) {
            case 'run_start':
              wrapTests(state.rootDescribeBlock, {
                concurrent: async (test, run) => {
                  if (events.startEarly && test.parent.parent) {
                    await readiness(test.parent).promise
                  }
                  await records.hooksBefore()
                  return concurrent(({ after, shared, setup }) => {
                    const scope = { ...scopeOf(test, after), ...(setup ? { setup } : {}) }
                    return running.run(scope, async () => {
                      const failed = await run().then(
                        () => undefined,
                        (error: unknown) => ({ error }),
                      )
                      await records.record(scope, failed === undefined, { tallied: !shared })
                      if (failed) throw failed.error
                    })
                  }, records.tally)
                },
                // The test's body runs with its scope, so that what it starts and leaves running
                // is known by the test that started it.
                serial: (test, run) => {
                  const scope = current
                  const body = () => (scope ? running.run(scope, run) : run())
                  if (!chaosChosen(chaos) || !chaosFrame || !scope) return body()
                  return runChosen(chaos, chaosFrame, scope.name, body, reporter)
                },
              })
              break
            case 'run_finish':
              unregister()
              await records.flush()
              await reporter?.flush()
              break
            // The root block is the file: the service itself, started in its beforeAll.
            case 'run_describe_start':
              if (block?.parent) blocks.set(block, await (await framed()).checkpoint())
              break
            case 'block_ready':
              if (block) readiness(block).resolve()
              break
            case 'run_describe_finish': {
              const frame = block && blocks.get(block)
              if (frame) {
                blocks.delete(block)
                await (await framed()).restore(frame.id)
              }
              break
            }
            case 'test_started':
              if (test && !test.concurrent) {
                await records.hooksBefore()
                const frame = await (await framed()).checkpoint()
                tests.set(test, frame)
                current = scopeOf(test, frame.journal)
              }
              break
            case 'test_done': {
              const frame = test && tests.get(test)
              if (frame) {
                tests.delete(test)
                try {
                  if (test.errors.length > 0) await linkErrors(test, await source())
                  await records.record(scopeOf(test, frame.journal), test.errors.length === 0)
                } finally {
                  current = undefined
                  await (await framed()).restore(frame.id)
                }
              }
              break
            }
          }
        } catch (error) {
          // A test's own error fails that test (and, at its start, keeps it from running); a
          // block's fails the file.
          if (test) test.errors.push(error)
          else state.unhandledErrors.push(error)
        }
      }
      events.subscribe(handler)
    },
  }
}

type Around = (test: CircusTest, run: () => Promise<unknown>) => Promise<unknown>

/**
 * Runs every test's function through `around.concurrent` or `around.serial`, `this` and all (a
 * test taking a `done` callback keeps it).
 */
function wrapTests(block: CircusBlock, around: { concurrent: Around; serial: Around }): void {
  for (const child of block.children) {
    if (child.type === 'describeBlock') {
      wrapTests(child, around)
      continue
    }
    const fn = child.fn
    if (!fn) continue
    const wrap = child.concurrent ? around.concurrent : around.serial
    child.fn =
      fn.length === 0
        ? function (this: unknown) {
            return wrap(child, async () => fn.call(this))
          }
        : function (this: unknown, done: unknown) {
            return wrap(child, async () => fn.call(this, done))
          }
  }
}

/** The test's case name (its file, describe blocks and title), as the Vitest helper names it. */
function scopeOf(test: CircusTest, after: number): TestScope {
  const titles = [test.name]
  for (let block = test.parent; block.parent; block = block.parent) titles.unshift(block.name)
  const root = process.cwd()
  const path = (
    globalThis as { expect?: { getState?(): { testPath?: string } } }
  ).expect?.getState?.()?.testPath
  return { after, name: [path ? relative(root, path) : '', ...titles].join(' › '), root }
}

/**
 * A failed test gets its last call on the service as a link (decision 093): one more error
 * under its own, whose text is the link with its length (Jest prints each error's stack).
 */
async function linkErrors(test: CircusTest, source: ContractSource): Promise<void> {
  const link = await testLink(source, test.name)
  if (!link) return
  const shown = new Error(link.text)
  shown.stack = link.text
  test.errors.push(shown)
}
