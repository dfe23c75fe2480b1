/**
 * `service-playground/playwright`: `test` with a `service` fixture and `expect` with
 * `toHaveReceived`. By default the service runs in the test's own process, a fresh one for every
 * test, and answers `<baseUrl>/**` in the page through `context.route` — the app under test needs
 * no service worker of ours. Given a running `serve` (`serviceOptions.serve`, or the environment
 * variables `SERVICE_PLAYGROUND_URL` and `SERVICE_PLAYGROUND_CONTROL_TOKEN`), each worker gets an
 * account of its own there instead, reset after every test. `service.contract.save(path)` (or
 * `serviceOptions.contract`) records what a test relied on into a contract file.
 */
import { test as base, expect as baseExpect, type TestInfo } from '@playwright/test'
import { startService, startUnrouted } from '../node'
import { checkReceived, type ReceivedExpectation } from '../client/received-check'
import { openAccount, type ServeAccount } from '../client/open-account'
import {
  serveTargetFromEnvironment,
  startOptions,
  type ServeTarget,
  type ServiceFixture,
  type ServiceFixtureOptions,
} from './playwright-options'
import { contractSource, insightOf, saveAtEnd, testOf, withContract } from './playwright-recording'
import { routeTo } from './playwright-route'
import {
  checkNarrower,
  checkNoWider,
  checkReach,
  type ReachWhere,
  type UseSlack,
} from './reach-matchers'
import { remoteService, type RemoteService } from './remote'
import { accountService } from './account-service'
import type { PolicyCheck } from '../engine/insight'
import { trimBaseUrl } from '../client/wire'
import { chaosChosen, chooseChaos, type ChaosChoice } from './chaos/chosen'
import { exempt } from './chaos/plan'
import { installChaos, withChaos } from './chaos/playwright-chaos'
import type { ChaosFrame } from './chaos/run'
import { serveChaosFrame } from './chaos/serve-frame'
import { chaosFrameOver } from './in-process-handle'

// Every test registered after this module is loaded can be rerun under chaos (decision 104).
installChaos()

export type { ContractRecorder } from './contract'
export type { ServeTarget, ServiceFixture, ServiceFixtureOptions } from './playwright-options'
export type { ChaosKind, ChaosOptions } from './chaos/options'
export { ChaosFailure, type ChaosFinding } from './chaos/run'

/** The worker's service, and how requests reach it (its engine, or `fetch` to its account). */
export type WorkerService = RemoteService & { send(request: Request): Promise<Response> }

/** The chaos frame of each worker's service: its engine here, or its account over `serve`. */
const chaosFrames = new WeakMap<WorkerService, () => ChaosFrame>()

/** The test's own setup through the fixture (`service.authorize`): never faulted by chaos. */
const exempted = <T extends RemoteService>(remote: T): T => ({
  ...remote,
  authorize: (abilities, authorizeOptions) =>
    exempt(() => remote.authorize(abilities, authorizeOptions)),
})

/** Runs the test (`use`) under the chaos its options or the environment chose, if any. */
const underChaos = <T>(
  chaos: ChaosChoice,
  frame: () => ChaosFrame,
  testInfo: TestInfo,
  use: () => Promise<T>,
): Promise<T> =>
  chaosChosen(chaos)
    ? withChaos(
        testInfo,
        { choice: chaos, frame: async () => frame(), name: testOf(testInfo).name },
        use,
      )
    : use()

export const test = base.extend<
  { service: ServiceFixture; serviceOptions: ServiceFixtureOptions },
  {
    serviceAccount: ServeAccount | undefined
    serveTarget: ServeTarget | undefined
    workerServiceOptions: ServiceFixtureOptions
    workerService: WorkerService
  }
>({
  serveTarget: [undefined, { option: true, scope: 'worker' }],
  serviceOptions: [{}, { option: true }],
  workerServiceOptions: [{}, { option: true, scope: 'worker' }],

  /**
   * The worker's service, for `beforeAll` hooks: what they write there is the data every test
   * of the worker starts from; each test's own writes are undone after it (`service` takes a
   * checkpoint as the test begins and restores it as the test ends).
   */
  workerService: [
    async ({ serviceAccount, workerServiceOptions }, use) => {
      const options = workerServiceOptions
      if (serviceAccount) {
        const remote = await accountService(serviceAccount, options)
        const value = { ...remote, send: (request: Request) => fetch(request) }
        chaosFrames.set(value, () => serveChaosFrame(remote))
        return use(value)
      }
      // In this worker's process, through msw too: a beforeAll hook's own client reaches it.
      const started = await startService(startOptions(options))
      const send = started.engine.handle
      const value = {
        ...remoteService({
          baseUrl: started.baseUrl,
          serviceName: started.serviceName,
          secret: started.secret,
          send,
        }),
        send,
      }
      chaosFrames.set(value, () => chaosFrameOver(started))
      await use(value)
      started.stop()
    },
    { scope: 'worker' },
  ],

  serviceAccount: [
    async ({ serveTarget }, use) => {
      const target = serveTarget ?? serveTargetFromEnvironment()
      if (!target) return use(undefined)
      const account = await openAccount(target)
      await use(account)
      await account.close()
    },
    { scope: 'worker' },
  ],

  service: async ({ context, serviceOptions, serviceAccount, workerService }, use, testInfo) => {
    const { chaos: chaosOptions, ...options } = serviceOptions
    // Checked before the test's function runs: an error names the option that is wrong.
    const chaos = chooseChaos('serviceOptions', chaosOptions)
    const engineOptions = ['secrets', 'clock', 'limits', 'strict'] as const
    // With options of its own (or a worker service it cannot share), a test gets a fresh engine.
    const fresh =
      !serviceAccount &&
      (engineOptions.some((name) => options[name] !== undefined) ||
        (options.serviceName !== undefined && options.serviceName !== workerService.serviceName))
    if (!fresh) {
      const { send, ...remote } = workerService
      const own = options.baseUrl === undefined ? undefined : trimBaseUrl(options.baseUrl)
      const serviceName = options.serviceName ?? remote.serviceName
      const shown = { ...remote, serviceName, ...(own ? { baseUrl: own } : {}) }
      const frame = await remote.checkpoint()
      // The page's requests are answered from this process even over `serve`: a page on a
      // public origin may not reach 127.0.0.1 itself (Chromium's private network access).
      const stop =
        own && own !== remote.baseUrl
          ? await routeTo(context, own, (request) =>
              send(new Request(request.url.replace(own, remote.baseUrl), request)),
            )
          : await routeTo(context, remote.baseUrl, send)
      const source = contractSource(remote, remote.baseUrl)
      const scoped: RemoteService = {
        ...shown,
        // This test's requests alone: those after its checkpoint.
        requests: async (filter) =>
          (await remote.requests(filter)).filter((request) => request.id > frame.journal),
      }
      const checks: PolicyCheck[] = []
      const unregister = insightOf(remote, checks)
      const value = withContract(exempted(scoped), source, testInfo, frame.journal)
      await underChaos(chaos, chaosFrames.get(workerService)!, testInfo, () => use(value))
      unregister()
      await stop()
      try {
        await saveAtEnd(source, testInfo, options, checks, frame.journal)
      } finally {
        await remote.restore(frame.id)
      }
      return
    }
    // Answered in the page alone: the worker's service keeps this process's msw.
    const started = await startUnrouted(startOptions(options))
    const stop = await routeTo(context, started.baseUrl, started.engine.handle)
    const remote = remoteService({
      baseUrl: started.baseUrl,
      serviceName: started.serviceName,
      secret: started.secret,
      send: started.engine.handle,
    })
    const source = contractSource(remote, started.baseUrl)
    const checks: PolicyCheck[] = []
    const unregister = insightOf(remote, checks)
    const value = withContract(exempted(remote), source, testInfo)
    await underChaos(
      chaos,
      () => chaosFrameOver(started),
      testInfo,
      () => use(value),
    )
    unregister()
    await stop()
    await saveAtEnd(source, testInfo, options, checks)
  },
})

export const expect = baseExpect.extend({
  async toHaveReceived(
    service: ServiceFixture,
    endpoint: string | RegExp,
    expected?: ReceivedExpectation,
  ) {
    const { pass, message } = checkReceived(await service.requests(), endpoint, expected)
    return { pass, message: () => message, name: 'toHaveReceived' }
  },
  /** The token can call `endpoint` now (somewhere in `where`), as the service decides it. */
  async toReach(token: string, endpoint: string, where?: ReachWhere) {
    const { pass, message } = await checkReach(token, endpoint, where, this.isNot)
    return { pass, message: () => message, name: 'toReach' }
  },
  /** The token reaches nothing its parent does not. */
  async toBeNarrowerThan(child: string, parent: string) {
    const { pass, message } = await checkNarrower(child, parent)
    return { pass, message: () => message, name: 'toBeNarrowerThan' }
  },
  /** The token reaches nothing beyond what the journal shows it using (decision 090). */
  async toBeNoWiderThanItsUse(token: string, slack?: UseSlack) {
    const { pass, message } = await checkNoWider(token, slack)
    return { pass, message: () => message, name: 'toBeNoWiderThanItsUse' }
  },
})

export type { ReceivedRequest, RequestFilter } from '../client/journal'
export type { ReceivedExpectation } from '../client/received-check'
