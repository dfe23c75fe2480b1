/** An account on a running `serve` as a service the kit reaches by `fetch`. */
import { DEFAULT_JOURNAL } from '../node'
import { controlClient } from '../client/control'
import type { ServeAccount } from '../client/open-account'
import { trimBaseUrl } from '../client/wire'
import { DEFAULT_SERVICE_NAME } from '../engine/settings'
import { remoteService, type RemoteService } from './remote'

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
export function theAccountAt({ url, controlToken, secret }: Required<ServeTarget>): ServeAccount {
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
