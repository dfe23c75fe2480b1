/**
 * The service of a test file as an account on a running `serve`, for the Vitest and Jest
 * helpers alike: opened when the helper is called, its frames checkpoints and restores on the
 * account's control plane, removed after the file.
 */
import { http, passthrough, type HttpHandler } from 'msw'
import { AsyncLocalStorage } from 'node:async_hooks'
import type { Checkpoint, ExchangeRecord } from '../engine'
import type { AccountSnapshot } from '../engine/account/snapshot'
import { joinSharedServer, leaveSharedServer } from '../node/shared-server'
import { DEFAULT_JOURNAL, type ServiceControls } from '../node'
import { controlClient } from '../client/control'
import type { RequestFilter } from '../client/journal'
import { openAccount, type ServeAccount } from '../client/open-account'
import { DEFAULT_SERVICE_NAME } from '../engine/settings'
import type { ContractSource } from './contract'
import { HANDLE, recorder, type Common, type FrameParts, type TestScope } from './in-process-handle'
import { remoteService, type RemoteService } from './remote'
import { controlsOver } from '../client/service-controls'
import type { Framed } from './vitest-frames'
import { trimBaseUrl } from '../client/wire'
import { exempt } from './chaos/plan'
import { serveChaosFrame } from './chaos/serve-frame'

/** What a runner's helper gives the serve handle: its file hooks, the running test, the frames. */
export interface ServeHooks {
  beforeAll(fn: () => Promise<void>): void
  afterAll(fn: () => void | Promise<void>): void
  /** The test running now, or none (in a `beforeAll`). */
  scope(): TestScope | undefined
  frame(parts: FrameParts): void
}

/** The options that apply over `serve`: the rest are a service in this process's. */
export interface ServeHandleOptions {
  serviceName?: string
  journal?: number
}

/**
 * A running `serve`: its URL and control token, as it printed them. With `secret`, the account
 * answering at `url` itself (its secret, and its own control token) is the file's, and no
 * account is made: for a server that makes none, such as `serve --upstream`. Files then take
 * turns on it (`fileParallelism: false`).
 */
export interface ServeTarget {
  url: string
  controlToken: string
  secret?: string
}

/**
 * The service of one test file, as an account on a running `serve`: everything is a promise;
 * `await expect(service).toHaveReceived(…)`.
 */
export interface ServeServiceHandle extends ServiceControls<false>, Common {}

/**
 * An account on `serve` as a service reached by `fetch`: its service name learnt from the
 * server when not given, its journal holding `options.journal` exchanges.
 */
export async function accountService(
  account: Pick<ServeAccount, 'baseUrl' | 'secret' | 'controlToken'>,
  options: ServeHandleOptions,
): Promise<RemoteService> {
  const over = (serviceName: string) =>
    remoteService({
      baseUrl: account.baseUrl,
      serviceName,
      secret: account.secret,
      send: (request) => fetch(request),
      controlToken: account.controlToken,
    })
  const remote = over(options.serviceName ?? (await serviceNameOf(over(DEFAULT_SERVICE_NAME))))
  await remote.control('exchanges', { capacity: options.journal ?? DEFAULT_JOURNAL })
  return remote
}

/** The service name a `serve` answers as: the package its insecure `<name>.create` is in. */
async function serviceNameOf(remote: RemoteService): Promise<string> {
  const endpoints = await remote.control<Array<{ name: string; insecure: boolean }>>('endpoints')
  const create = endpoints.find(
    (endpoint) =>
      endpoint.insecure && /^[^.]+\.create$/.test(endpoint.name) && endpoint.name !== 'auth.create',
  )
  return create ? create.name.split('.')[0]! : DEFAULT_SERVICE_NAME
}

/** The account answering at `url` itself, used as it is: never made, reset or removed here. */
function theAccountAt({ url, controlToken, secret }: Required<ServeTarget>): ServeAccount {
  const reset = async () => {
    await controlClient({ baseUrl: url, token: controlToken }).post('reset', {})
  }
  return {
    id: '',
    baseUrl: trimBaseUrl(url),
    secret,
    controlToken,
    seed: null,
    reset,
    close: async () => {},
  }
}

/**
 * The file's service as an account of its own on a running `serve` (or, with `target.secret`,
 * the account at `target.url` itself), removed after the file: everything is a promise. The
 * runner's helper says where the frames hang (`hooks.frame`); concurrent tests share one frame.
 */
export function serveHandle(
  options: ServeHandleOptions,
  target: ServeTarget,
  hooks: ServeHooks,
): ServeServiceHandle {
  let account: ServeAccount | undefined
  let remote: RemoteService | undefined
  /** The running concurrent test's own account, where it has one. */
  const forks = new AsyncLocalStorage<RemoteService>()
  const opening = (async () => {
    account = target.secret
      ? theAccountAt({ ...target, secret: target.secret })
      : await openAccount(target)
    remote = await accountService(account, options)
    return remote
  })()
  // Seen by the first hook or test that needs it; not an unhandled rejection meanwhile.
  opening.catch(() => undefined)
  const service = () => {
    const fork = forks.getStore()
    return fork ? Promise.resolve(fork) : opening
  }
  // The file's first hook: its own `beforeAll` hooks find the account open, as a service in
  // process is started by then.
  hooks.beforeAll(async () => {
    await opening
  })

  const known = (): RemoteService => {
    const fork = forks.getStore()
    if (fork) return fork
    if (!remote) {
      throw new Error(
        'useService({ serve }): the account is being opened; `await service.ready` first, or use it inside a test or a hook',
      )
    }
    return remote
  }
  const requests = async (filter?: RequestFilter) => {
    const after = hooks.scope()?.after ?? 0
    return (await (await service()).requests(filter)).filter((request) => request.id > after)
  }
  const source = async (): Promise<ContractSource> => {
    const opened = await service()
    return {
      baseUrl: opened.baseUrl,
      serviceName: opened.serviceName,
      journal: (after) =>
        opened.control(after === undefined ? 'exchanges' : `exchanges?after=${after}`),
      secrets: () => opened.listSecrets(),
    }
  }
  const controls = controlsOver(service)
  hooks.frame({
    framed: service,
    source,
    concurrent: target.secret
      ? sharedFrame(service)
      : forkEach(
          () => opening,
          forks,
          async () => {
            const opened = await openAccount(target)
            const fork = await accountService(opened, {
              ...options,
              serviceName: (await opening).serviceName,
            }).catch(async (error: unknown) => {
              await opened.close()
              throw error
            })
            return Object.assign(fork, { close: () => opened.close() })
          },
        ),
    insight: controls,
    chaos: async () => serveChaosFrame(await opening),
  })
  hooks.afterAll(async () => {
    await opening.catch(() => undefined)
    await account?.close()
  })

  return {
    [HANDLE]: true,
    ready: opening.then(() => undefined),
    get baseUrl() {
      return known().baseUrl
    },
    get serviceName() {
      return known().serviceName
    },
    get secret() {
      return known().secret
    },
    get secrets() {
      return [known().secret]
    },
    ...controls,
    // The test's own setup: never faulted by a chaos run.
    authorize: async (abilities, authorizeOptions) =>
      exempt(async () => (await service()).authorize(abilities, authorizeOptions)),
    requests,
    contract: recorder(hooks.scope, source),
  } as ServeServiceHandle
}

/**
 * Each concurrent test on an account of its own, forked from the file's as it stands when the
 * test starts (its own and its blocks' fixtures: keys, procedures, secrets and signing key, so
 * the file's tokens work there, and the clock), answered from it alone and removed after it:
 * inside the test every method of the handle reaches the fork, and so does every request this
 * process sends to the file's account (msw passes it on). Faults, strict mode and the rate
 * window are not part of an account's export: the fork starts without them.
 */
function forkEach(
  file: () => Promise<RemoteService>,
  forks: AsyncLocalStorage<RemoteService>,
  open: () => Promise<RemoteService & { close(): Promise<void> }>,
): FrameParts['concurrent'] {
  let routing: { handlers: HttpHandler[]; running: number } | undefined
  return async function around(run): Promise<void> {
    const from = await file()
    const fork = await open()
    try {
      // The fixtures' exchanges, for the test's contract: the fork's journal starts empty. They
      // went to the file's account: as the fork's own setup, they are read at the fork's URL.
      const { exchanges } = await from.control<{ exchanges: ExchangeRecord[] }>('exchanges')
      const setup = exchanges.map((exchange) => rebased(exchange, from.baseUrl, fork.baseUrl))
      await fork.control('import', await from.control<AccountSnapshot>('export'))
      routing ??= { handlers: [passOn(from.baseUrl, forks)], running: 0 }
      if (routing.running++ === 0) joinSharedServer(routing.handlers)
      try {
        await forks.run(fork, () => run({ after: 0, shared: false, setup }))
      } finally {
        if (--routing.running === 0) leaveSharedServer(routing.handlers)
      }
    } finally {
      await fork.close()
    }
  }
}

/** `exchange` as if sent to `to`, where it went to `from`. */
function rebased(exchange: ExchangeRecord, from: string, to: string): ExchangeRecord {
  const { url } = exchange.request
  if (!url.startsWith(from)) return exchange
  return { ...exchange, request: { ...exchange.request, url: `${to}${url.slice(from.length)}` } }
}

/**
 * Requests to `baseUrl` made inside a concurrent test go to its fork instead, as they are:
 * method, path, query, headers and body. Every other request goes on untouched.
 */
function passOn(baseUrl: string, forks: AsyncLocalStorage<RemoteService>): HttpHandler {
  return http.all(`${baseUrl}/*`, async ({ request }) => {
    const fork = forks.getStore()
    if (!fork) return passthrough()
    const body = ['GET', 'HEAD'].includes(request.method) ? undefined : await request.arrayBuffer()
    try {
      return await fetch(`${fork.baseUrl}${request.url.slice(baseUrl.length)}`, {
        method: request.method,
        headers: request.headers,
        body,
        redirect: 'manual',
      })
    } catch {
      // The fork dropped the connection (a network fault): so does the answer.
      return Response.error()
    }
  })
}

/**
 * Concurrent tests over one account share one frame, taken when the first of them starts and
 * restored when the last ends: none wipes what another still running wrote.
 */
function sharedFrame(service: () => Promise<Framed>): FrameParts['concurrent'] {
  let running = 0
  let frame: Promise<Checkpoint> | undefined
  return async function around(run, groupEnded): Promise<void> {
    running += 1
    frame ??= service().then((framed) => framed.checkpoint())
    const taken = await frame
    try {
      await run({ after: taken.journal, shared: true })
    } finally {
      running -= 1
      if (running === 0) {
        frame = undefined
        try {
          await groupEnded(taken.journal)
        } finally {
          await (await service()).restore(taken.id)
        }
      }
    }
  }
}
