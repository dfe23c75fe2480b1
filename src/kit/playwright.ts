/**
 * `service-playground/playwright`: `test` with a `service` fixture and `expect` with
 * `toHaveReceived`. By default the service runs in the test's own process, a fresh one for every
 * test, and answers `<baseUrl>/**` in the page through `context.route` — the app under test needs
 * no service worker of ours. Given a running `serve` (`serviceOptions.serve`, or the environment
 * variables `SERVICE_PLAYGROUND_URL` and `SERVICE_PLAYGROUND_CONTROL_TOKEN`), each worker gets an
 * account of its own there instead, reset after every test. `service.contract.save(path)` (or
 * `serviceOptions.contract`) records what a test relied on into a contract file.
 */
import { test as base, expect as baseExpect } from '@playwright/test'
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
import { contractSource, insightOf, saveAtEnd, withContract } from './playwright-recording'
import { routeTo } from './playwright-route'
import {
  checkNarrower,
  checkNoWider,
  checkReach,
  type ReachWhere,
  type UseSlack,
} from './reach-matchers'
import { remoteService, type RemoteService } from './remote'
import { accountService } from './serve-handle'
import type { PolicyCheck } from '../engine/insight'
import { trimBaseUrl } from '../client/wire'

export type { ContractRecorder } from './contract'
export type { ServeTarget, ServiceFixture, ServiceFixtureOptions } from './playwright-options'

/** The worker's service, and how requests reach it (its engine, or `fetch` to its account). */
export type WorkerService = RemoteService & { send(request: Request): Promise<Response> }

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
        return use({ ...remote, send: (request: Request) => fetch(request) })
      }
      // In this worker's process, through msw too: a beforeAll hook's own client reaches it.
      const started = await startService(startOptions(options))
      const send = started.engine.handle
      await use({
        ...remoteService({
          baseUrl: started.baseUrl,
          serviceName: started.serviceName,
          secret: started.secret,
          send,
        }),
        send,
      })
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
    const options = { ...serviceOptions }
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
      await use(withContract(scoped, source, testInfo, frame.journal))
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
    await use(withContract(remote, source, testInfo))
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
