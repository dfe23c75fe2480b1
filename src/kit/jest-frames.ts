/**
 * Frames under Jest (decision 068): a checkpoint where each describe block and test starts,
 * restored where it ends, from jest-circus's events (`./jest-circus`).
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
import {
  circusEvents,
  wrapTests,
  type CircusBlock,
  type CircusTest,
  type Handler,
} from './jest-circus'

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
