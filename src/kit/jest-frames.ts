/**
 * Frames under Jest, from the events of jest-circus (Jest's runner since Jest 27), the ones a
 * custom environment's `handleTestEvent` receives: each awaited, each where no hook of the user
 * can come before or after it.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { relative } from 'node:path'
import type { Checkpoint } from '../engine'
import type { FrameParts, TestScope } from './in-process-handle'
import { testRecords, type RecordOptions } from './test-records'

interface CircusTest {
  type: 'test'
  name: string
  concurrent: boolean
  fn?: (this: unknown, ...args: unknown[]) => unknown
  parent: CircusBlock
  errors: unknown[]
}
interface CircusBlock {
  type: 'describeBlock'
  name: string
  parent?: CircusBlock
  children: Array<CircusBlock | CircusTest>
}
interface CircusEvent {
  name: string
  describeBlock?: CircusBlock
  test?: CircusTest
}
interface CircusState {
  rootDescribeBlock: CircusBlock
  unhandledErrors: unknown[]
}
type Handler = (event: CircusEvent, state: CircusState) => void | Promise<void>

/** The key jest-circus keeps its event handlers under, on the test file's global. */
const EVENT_HANDLERS = Symbol.for('EVENT_HANDLERS')

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
 */
export function jestFrames(
  where: string,
  options: RecordOptions = {},
): {
  scope(): TestScope | undefined
  frame(parts: FrameParts): void
} {
  const handlers = (globalThis as { [EVENT_HANDLERS]?: unknown })[EVENT_HANDLERS]
  if (!Array.isArray(handlers)) {
    throw new Error(
      `${where}: Jest's runner (jest-circus) is not running this file, and its events give describe blocks and tests their frames: call it from a test file or a setupFilesAfterEnv file, without \`testRunner: 'jest-jasmine2'\``,
    )
  }
  const running = new AsyncLocalStorage<TestScope>()
  let current: TestScope | undefined
  return {
    scope: () => running.getStore() ?? current,
    frame({ framed, concurrent, source }) {
      const records = testRecords(source, options)
      const blocks = new Map<CircusBlock, Checkpoint>()
      const tests = new Map<CircusTest, Checkpoint>()
      const handler: Handler = async (event, state) => {
        const { describeBlock: block, test } = event
        try {
          switch (event.name) {
            case 'run_start':
              wrapConcurrent(state.rootDescribeBlock, (test, run) =>
                concurrent(({ after, shared }) => {
                  const scope = scopeOf(test, after)
                  return running.run(scope, async () => {
                    const failed = await run().then(
                      () => undefined,
                      (error: unknown) => ({ error }),
                    )
                    await records.record(scope, failed === undefined, { tallied: !shared })
                    if (failed) throw failed.error
                  })
                }, records.tally),
              )
              break
            case 'run_finish':
              await records.flush()
              break
            // The root block is the file: the service itself, started in its beforeAll.
            case 'run_describe_start':
              if (block?.parent) blocks.set(block, await (await framed()).checkpoint())
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
      handlers.push(handler)
    },
  }
}

/** Runs every concurrent test's function through `around`, `this` and all. */
function wrapConcurrent(
  block: CircusBlock,
  around: (test: CircusTest, run: () => Promise<void>) => Promise<void>,
): void {
  for (const child of block.children) {
    if (child.type === 'describeBlock') {
      wrapConcurrent(child, around)
    } else if (child.concurrent && child.fn) {
      const fn = child.fn
      child.fn = function (this: unknown) {
        return around(child, async () => {
          await fn.call(this)
        })
      }
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
