// A target reached with any `fetch`: a server at a base URL from Node, or the playground's own
// engine from inside its page (through its service worker). Browser-safe.
import { ControlError, controlClient } from '../client/control'
import { fromBase64, toBase64, trimBaseUrl } from '../client/wire'
import type { Target, WireRequest, WireResponse } from './run'

/** A Fetch `Request` for a request as cases carry it. */
export function toRequest({ url, method, headers, body }: WireRequest): Request {
  return new Request(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body: fromBase64(body) }),
  })
}

/** A Fetch `Response` as cases carry it: headers by lower-case name, the body in base64. */
export async function fromResponse(response: Response): Promise<WireResponse> {
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: toBase64(new Uint8Array(await response.arrayBuffer())),
  }
}

/** The control plane answered with an error: the client's `ControlError`, by its older name. */
export { ControlError as ControlPlaneError }

/** The control plane reached with `send`, as any target serves it under its base URL. */
export function controlOver(
  send: (request: Request) => Promise<Response>,
  baseUrl: string,
  token?: string,
): NonNullable<Target['control']> {
  const client = controlClient({ baseUrl, send, ...(token ? { token } : {}) })
  return (path, body) => client.request(path, body)
}

export interface FetchTargetOptions {
  /** Where the service answers: its endpoints at `<baseUrl>/a/b/c`. */
  baseUrl: string
  /** The service's name, as its media types say it. */
  serviceName: string
  /** How requests go out; the global `fetch` unless given. */
  fetch?: (request: Request) => Promise<Response>
  /** The target's name in reports; `base-url` unless given. */
  name?: string
  /** A secret of the account, used where there is no control plane to make one. */
  secret?: string
  /**
   * Whether cases may manage the account through `<baseUrl>/_account/*` (our control plane):
   * `true` when it needs no token (the playground's page), the token when it needs one (`serve`).
   */
  control?: boolean | string
}

/**
 * A service reached with `fetch` at a base URL. With a control plane, each case runs on an
 * account reset through it; without, cases use `secret`, and steps that need the control plane
 * are skipped with the reason.
 */
export function fetchTarget(options: FetchTargetOptions): Target {
  const { serviceName, secret, control = false } = options
  const baseUrl = trimBaseUrl(options.baseUrl)
  const send = options.fetch ?? ((request: Request) => fetch(request))
  return {
    name: options.name ?? 'base-url',
    baseUrl,
    serviceName,
    ...(secret === undefined ? {} : { secret }),
    send: async (request) => fromResponse(await send(toRequest(request))),
    ...(control === false
      ? {}
      : {
          control: controlOver(send, baseUrl, control === true ? undefined : control),
        }),
  }
}
