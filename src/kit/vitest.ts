/**
 * `service-playground/vitest`: `useService(options)` gives the test file the service — in this
 * process by default (msw answers its base URL), or an account of its own on a running `serve`
 * (`serve: { url, controlToken }`). Its state is a stack of frames: what the file's and a
 * `describe`'s `beforeAll` write is there for every test inside; what a test (and its
 * `beforeEach`) writes — keys, procedures, secrets, clock, faults, journal — is undone when the
 * test ends. A concurrent test gets a copy of its own in process, or shares one frame with its
 * concurrent siblings over `serve`. `expect(service).toHaveReceived(endpoint, expected)` asserts
 * on what arrived; `service.contract.save(path)` (or `contract`) records what a test relied on.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { afterAll, aroundEach, beforeAll, expect, type TestContext } from 'vitest'
import type { ReceivedExpectation } from '../node'
import {
  inProcessHandle,
  type FrameParts,
  type ServiceHandle,
  type TestScope,
} from './in-process-handle'
import { registerInsight } from './reach-matchers'
import { toHaveReceived } from './received-matcher'
import type { ServeTarget } from './account-service'
import { serveHandle, type ServeServiceHandle } from './serve-handle'
import { testRecords } from './test-records'
import { frameDescribeBlocks } from './vitest-frames'
import type { ExchangeRecord } from '../engine'
import './vitest-insight'
import { checkUseServiceOptions, type UseServiceOptions } from './use-service-options'
import { chaosChosen, type ChaosChoice } from './chaos/chosen'
import { chaosTests } from './chaos/vitest-chaos'
import { chaosReporter } from './chaos/reporter'

import { linkFailure } from './test-link'
export type { ContractRecorder } from './contract'
export type { ServiceHandle } from './in-process-handle'
export type { ServeTarget } from './account-service'
export type { ServeServiceHandle } from './serve-handle'
export type { ChaosKind, ChaosOptions } from './chaos/options'
export { ChaosFailure, type ChaosFinding } from './chaos/run'
export type { UseServiceOptions } from './use-service-options'

/** Starts the service for this test file; see the module's doc. */
export function useService(options: UseServiceOptions & { serve: ServeTarget }): ServeServiceHandle
export function useService(options?: UseServiceOptions): ServiceHandle
export function useService(options: UseServiceOptions = {}): ServiceHandle | ServeServiceHandle {
  const chaos = checkUseServiceOptions(options)
  return options.serve ? overServe(options, options.serve, chaos) : inProcess(options, chaos)
}

/** The frames every test gets, and the contract it records: the same in both modes. */
function frameTests(
  { framed, source, concurrent, insight, chaos: chaosFrame }: FrameParts,
  options: UseServiceOptions,
  scope: AsyncLocalStorage<TestScope>,
  chaos: ChaosChoice = {},
) {
  const records = testRecords(source, options)
  // A chaos run's report, printed (and written) when the file is done.
  const reporter = chaos.settings && chaosReporter(source, chaos.settings)
  let unregister: (() => void) | undefined
  // Vitest reads the first parameter as the fixtures it needs: none; the file is the second.
  // eslint-disable-next-line no-empty-pattern
  beforeAll(async ({}, file) => {
    unregister = registerInsight({ ...insight, checked: records.checked })
    await frameDescribeBlocks(file as never, framed)
    if (chaosChosen(chaos) && chaosFrame) {
      await chaosTests(
        file as never,
        chaosFrame,
        () => scope.getStore()?.name ?? '',
        chaos,
        reporter,
      )
    }
  })
  afterAll(async () => {
    unregister?.()
    await records.flush()
    await reporter?.flush()
  })
  aroundEach(async (runTest, context) => {
    const test = testOf(context)
    const record = (after: number, tallied = true, setup?: readonly ExchangeRecord[]) =>
      records.record(
        { after, ...test, ...(setup ? { setup } : {}) },
        context.task.result?.state === 'pass',
        { tallied },
      )
    await records.hooksBefore()
    if (context.task.concurrent) {
      return concurrent(
        ({ after, shared, setup }) =>
          scope.run({ after, ...test, ...(setup ? { setup } : {}) }, async () => {
            await runTest()
            await linkFailure(context.task.result, source, test.name)
            await record(after, !shared, setup)
          }),
        records.tally,
      )
    }
    const service = await framed()
    const frame = await service.checkpoint()
    try {
      await scope.run({ after: frame.journal, ...test }, async () => {
        await runTest()
        await linkFailure(context.task.result, source, test.name)
        await record(frame.journal)
      })
    } finally {
      await service.restore(frame.id)
    }
  })
}

function inProcess(options: UseServiceOptions, chaos: ChaosChoice): ServiceHandle {
  const {
    contract: _contract,
    coverage: _coverage,
    serve: _serve,
    chaos: _chaos,
    ...serviceOptions
  } = options
  const scope = new AsyncLocalStorage<TestScope>()
  return inProcessHandle('useService', serviceOptions, {
    beforeAll: (fn) => beforeAll(fn),
    afterAll: (fn) => afterAll(fn),
    scope: () => scope.getStore(),
    frame: (parts) => frameTests(parts, options, scope, chaos),
  })
}

function overServe(
  options: UseServiceOptions,
  target: ServeTarget,
  chaos: ChaosChoice,
): ServeServiceHandle {
  const scope = new AsyncLocalStorage<TestScope>()
  return serveHandle(options, target, {
    beforeAll: (fn) => beforeAll(fn),
    afterAll: (fn) => afterAll(fn),
    scope: () => scope.getStore(),
    frame: (parts) => frameTests(parts, options, scope, chaos),
  })
}

/** The test's case name (its file, describe blocks and title) and its project's root. */
function testOf({ task }: TestContext): { name: string; root: string } {
  const titles = [task.name]
  for (let suite = task.suite; suite && suite !== task.file; suite = suite.suite) {
    titles.unshift(suite.name)
  }
  const { filepath, name: file } = task.file
  const root = filepath.endsWith(file) ? filepath.slice(0, -file.length) : process.cwd()
  return { name: [file, ...titles].join(' › '), root }
}

expect.extend({ toHaveReceived })

declare module 'vitest' {
  // The type parameter must read as vitest declares it.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  interface Matchers<T = any> {
    /**
     * The service received requests to `endpoint` (a dotted name or a pattern) matching
     * `expected`: at least one, or exactly `times`. Its failure lists what did arrive, nearest
     * first. Over `serve`, await it.
     */
    toHaveReceived(endpoint: string | RegExp, expected?: ReceivedExpectation): T
  }
}
