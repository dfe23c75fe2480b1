/**
 * `service-playground/playwright`: `test` with a `service` fixture and `expect` with
 * `toHaveReceived`. By default the service runs in the test's own process, a fresh one for every
 * test, and answers `<baseUrl>/**` in the page through `context.route` — the app under test needs
 * no service worker of ours. Given a running `serve` (`serviceOptions.serve`, or the environment
 * variables `SERVICE_PLAYGROUND_URL` and `SERVICE_PLAYGROUND_CONTROL_TOKEN`), each worker gets an
 * account of its own there instead, reset after every test. `service.contract.save(path)` (or
 * `serviceOptions.contract`) records what a test relied on into a contract file.
 */
import { dirname, relative, sep } from 'node:path'
import {
  test as base,
  expect as baseExpect,
  type BrowserContext,
  type Route,
  type TestInfo,
} from '@playwright/test'
import { startService, startUnrouted, type StartServiceOptions } from '../node'
import { checkReceived, DEFAULT_JOURNAL, type ReceivedExpectation } from '../client/journal'
import { openAccount, type ServeAccount } from '../client/open-account'
import {
  saveContract,
  type ContractRecorder,
  type ContractSource,
  type TestContract,
} from './contract'
import { testLink } from './test-link'
import { addCoverage } from './coverage-collect'
import { summarizeFailedTest } from './test-summary'
import {
  checkNarrower,
  checkNoWider,
  checkReach,
  registerInsight,
  type ReachWhere,
  type UseSlack,
} from './reach-matchers'
import { remoteService, type RemoteService } from './remote'
import { accountService } from './serve-handle'
import { tallyChecks, tallyCoverage, type PolicyCheck } from '../engine/insight'
import { trimBaseUrl } from '../client/wire'

export type { ContractRecorder } from './contract'

export interface ServeTarget {
  /** The server's URL, as `serve` printed it: `http://127.0.0.1:8787`. */
  url: string
  /** The server's control token (`serve --control-token`, or the one it printed). */
  controlToken: string
}

/**
 * How the service of a test is made. Against a `serve` (see `serveTarget`), only `baseUrl`,
 * `serviceName` and `journal` apply: with `baseUrl`, the page's requests to it are passed on to
 * the worker's account (for an app whose host is hard-coded); without it, the app calls
 * `service.baseUrl`.
 */
export type ServiceFixtureOptions = Pick<
  StartServiceOptions,
  'baseUrl' | 'serviceName' | 'secrets' | 'clock' | 'limits' | 'strict' | 'journal'
> & {
  /**
   * Records every passing test that uses the service into this contract file (relative to the
   * Playwright config's directory), each as its own case, at the test's end before the reset;
   * a test that made no request to the service is left out.
   */
  contract?: string
  /**
   * Tallies the authorization coverage of every test (decision 057) into this file (relative to
   * the Playwright config's directory), added up across the workers of the run:
   * `coverage: 'service-coverage.json'`, read by `npx service-playground coverage`.
   */
  coverage?: string
}

/** The service of one test. */
export type ServiceFixture = RemoteService & {
  /** Records this test's exchanges so far into a contract file: `contract.save('contracts/x.json')`. */
  readonly contract: ContractRecorder
}

/** The case a test records: named by its file (from the test directory), describe blocks and title. */
function testOf(testInfo: TestInfo): TestContract {
  const file = relative(testInfo.project.testDir, testInfo.file).split(sep).join('/')
  const configFile = testInfo.config.configFile
  return {
    name: [file, ...testInfo.titlePath.slice(1)].join(' › '),
    root: configFile ? dirname(configFile) : testInfo.config.rootDir,
  }
}

/** The journal and secrets of a service reached over its wire; `baseUrl` is where it saw requests. */
const contractSource = (remote: RemoteService, baseUrl: string): ContractSource => ({
  baseUrl,
  serviceName: remote.serviceName,
  journal: (after) =>
    remote.control(after === undefined ? 'exchanges' : `exchanges?after=${after}`),
  secrets: () => remote.listSecrets(),
})

/**
 * The fixture's value and what to do at the test's end: the contract option's file, saved
 * when the test passed (the journal held only this test: the service is new or was reset).
 */
function withContract(
  remote: RemoteService,
  source: ContractSource,
  testInfo: TestInfo,
  after = 0,
): ServiceFixture {
  const test = { ...testOf(testInfo), ...(after ? { after } : {}) }
  return {
    ...remote,
    contract: { save: async (path) => (await saveContract(source, test, path))! },
  }
}

async function saveAtEnd(
  source: ContractSource,
  testInfo: TestInfo,
  { contract: path, coverage }: ServiceFixtureOptions,
  checks: readonly PolicyCheck[],
  after = 0,
): Promise<void> {
  if (coverage) {
    // This test's exchanges alone: those after its checkpoint, or all of a new service's; and
    // what its passing `toReach` showed.
    const { exchanges } = await source.journal(after || undefined)
    const tally = tallyCoverage(exchanges, tallyChecks(checks))
    await addCoverage(coverage, testOf(testInfo).root, tally)
  }
  if (testInfo.status !== testInfo.expectedStatus) {
    // In a CI job, a failed test's calls and refusals on the job's page.
    await summarizeFailedTest(source, { name: testOf(testInfo).name, after })
  }
  if (path && testInfo.status === 'passed' && testInfo.expectedStatus === 'passed') {
    await saveContract(source, { ...testOf(testInfo), ...(after ? { after } : {}) }, path, true)
  }
  if (testInfo.status !== testInfo.expectedStatus && testInfo.status !== 'skipped') {
    // A failure gets its last call on the service as a link: reporters print a text
    // attachment under the error, and the annotation reaches JUnit's properties.
    const link = await testLink(source, testOf(testInfo).name)
    if (link?.url) testInfo.annotations.push({ type: 'step link', description: link.url })
    if (link) await testInfo.attach('step link', { body: link.text, contentType: 'text/plain' })
  }
}

/**
 * The service's insight, for `toReach` and `toBeNarrowerThan`, while the test runs; what a
 * passing `toReach` showed goes into `checks`, for the test's coverage.
 */
const insightOf = (remote: RemoteService, checks: PolicyCheck[]) =>
  registerInsight({
    reach: remote.reach,
    simulate: remote.simulate,
    diff: remote.diff,
    leastPrivilege: remote.leastPrivilege,
    checked: (check) => checks.push(check),
  })

function serveTargetFromEnvironment(): ServeTarget | undefined {
  const url = process.env.SERVICE_PLAYGROUND_URL
  const controlToken = process.env.SERVICE_PLAYGROUND_CONTROL_TOKEN
  if (!url) return undefined
  if (!controlToken) {
    throw new Error(
      'SERVICE_PLAYGROUND_URL is set but SERVICE_PLAYGROUND_CONTROL_TOKEN is not: give the control token serve printed (or started with)',
    )
  }
  return { url: trimBaseUrl(url), controlToken }
}

const inside = (baseUrl: string) => (url: URL) =>
  url.href === baseUrl || url.href.startsWith(`${baseUrl}/`) || url.href.startsWith(`${baseUrl}?`)

/** The page's request as a Fetch `Request`, to hand to an engine. */
async function toRequest(route: Route, signal: AbortSignal): Promise<Request> {
  const request = route.request()
  const headers = Object.entries(await request.allHeaders()).filter(
    ([name]) => !name.startsWith(':'),
  )
  const method = request.method()
  const data = method === 'GET' || method === 'HEAD' ? null : request.postDataBuffer()
  const body = data ? new Uint8Array(data) : null
  return new Request(request.url(), { method, headers, body, signal })
}

/**
 * Answers a routed request as the service did: its answer, or the failure a page meets when
 * the connection drops (`network`, `hang`: `fetch` rejects) or breaks mid-body (`reset`:
 * Playwright can fulfil a request only whole, so the page's `fetch` rejects as for a reset
 * connection).
 */
async function answer(route: Route, response: Response): Promise<void> {
  if (response.type === 'error') return route.abort('failed')
  let body: Buffer
  try {
    body = Buffer.from(await response.arrayBuffer())
  } catch {
    return route.abort('connectionreset')
  }
  await route.fulfill({
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body,
  })
}

/**
 * Routes `baseUrl` in every page of the context to `handle` (an engine's, or `fetch` to a
 * `serve` account); returns how to stop. A forwarded request that gets no answer (the server
 * dropped the connection: a `network` or `hang` fault) reaches the page as the network error
 * it is, never as a failure of the test.
 */
async function routeTo(
  context: BrowserContext,
  baseUrl: string,
  handle: (request: Request) => Promise<Response>,
): Promise<() => Promise<void>> {
  const pending = new AbortController()
  const settled = (error: unknown) =>
    pending.signal.aborted || /closed|disposed|already handled/i.test(String(error))
  await context.route(inside(baseUrl), async (route) => {
    let response: Response
    try {
      response = await handle(await toRequest(route, pending.signal))
    } catch (error) {
      if (settled(error)) return
      return route.abort('failed').catch((late: unknown) => {
        if (!settled(late)) throw late
      })
    }
    try {
      await answer(route, response)
    } catch (error) {
      // The page went away, or the test ended, while the answer was on its way.
      if (!settled(error)) throw error
    }
  })
  return async () => {
    pending.abort()
    await context.unrouteAll({ behavior: 'ignoreErrors' })
  }
}

/** `startService`'s options for a fixture's: those given, the journal the kit keeps. */
const startOptions = (options: ServiceFixtureOptions): StartServiceOptions => ({
  journal: options.journal ?? DEFAULT_JOURNAL,
  ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  ...(options.serviceName ? { serviceName: options.serviceName } : {}),
  ...(options.secrets?.length ? { secrets: options.secrets } : {}),
  ...(options.clock ? { clock: options.clock } : {}),
  ...(options.limits ? { limits: options.limits } : {}),
  ...(options.strict !== undefined ? { strict: options.strict } : {}),
})

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

export type { ReceivedExpectation, ReceivedRequest, RequestFilter } from '../client/journal'
