/**
 * The service of a test file as an account on a running `serve`, for the Vitest and Jest
 * helpers alike: opened when the helper is called, its frames checkpoints and restores on the
 * account's control plane, removed after the file.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import type { ServiceControls } from '../node'
import { openAccount, type ServeAccount } from '../client/open-account'
import type { RequestFilter } from '../client/journal'
import { controlsOver } from '../client/service-controls'
import {
  accountService,
  theAccountAt,
  type ServeHandleOptions,
  type ServeTarget,
} from './account-service'
import type { ContractSource } from './contract'
import { HANDLE, recorder, type Common, type FrameParts, type TestScope } from './in-process-handle'
import type { RemoteService } from './remote'
import { forkEach, sharedFrame } from './serve-concurrent'
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

/**
 * The service of one test file, as an account on a running `serve`: everything is a promise;
 * `await expect(service).toHaveReceived(…)`.
 */
export interface ServeServiceHandle extends ServiceControls<false>, Common {}

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
