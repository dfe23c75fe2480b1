import type {
  AnswerOf,
  BodyOf,
  ControlPath,
  ControlRoutes,
  QueryOf,
  RouteAt,
} from '../engine/control/control-routes'
import { trimBaseUrl } from './wire'

/**
 * The one client of the account control plane (`<baseUrl>/_account/`), typed from the control
 * plane's own route table as hono's `hc` is from its routes: `control.get('clock')` answers
 * `{ now }`, `control.post(`secrets/${id}/roll`, { at })` a `SecretView`, and a path or body
 * the control plane does not take is a type error. The playground, the kit, the conformance
 * runner and the Node helpers all reach the control plane through it. Browser-safe.
 */
export interface ControlClient {
  get<P extends ControlPath<'GET'>>(
    path: P,
    ...query: [QueryOf<RouteAt<'GET', P>>] extends [never] ? [] : [QueryOf<RouteAt<'GET', P>>?]
  ): Promise<AnswerOf<RouteAt<'GET', P>>>
  post<P extends ControlPath<'POST'>>(
    path: P,
    body: BodyOf<RouteAt<'POST', P>>,
  ): Promise<AnswerOf<RouteAt<'POST', P>>>
  /** Any request, untyped: `GET` without a body, `POST` with one. */
  request<T>(path: string, body?: unknown): Promise<T>
}

export interface ControlClientOptions {
  /** The account's base URL; its control plane answers below `<baseUrl>/_account/`. */
  baseUrl: string
  /** How requests go out: the global `fetch` unless given (an engine's `handle`, say). */
  send?: (request: Request) => Promise<Response>
  /** The control token, where the control plane asks for one (`serve`). */
  token?: string
}

/** The control plane answered with an error (or with something that is not its JSON). */
export class ControlError extends Error {
  constructor(
    readonly path: string,
    readonly status: number,
    /** The answer's body, as it came. */
    readonly text: string,
    /** What the control plane said was wrong: its error message, or the body. */
    readonly reason: string,
  ) {
    super(`control plane ${path}: ${status} ${text}`)
    this.name = 'ControlError'
  }
}

/** A control-plane client over `send` (see `ControlClient`). */
export function controlClient({ baseUrl, send, token }: ControlClientOptions): ControlClient {
  const base = trimBaseUrl(baseUrl)
  const go = send ?? ((request: Request) => fetch(request))
  async function request<T>(path: string, body?: unknown): Promise<T> {
    const response = await go(
      new Request(`${base}/_account/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    )
    const text = await response.text()
    let value: unknown
    let parsed = false
    try {
      value = text === '' ? null : JSON.parse(text)
      parsed = true
    } catch {
      // Not the control plane's JSON: said below, by the status or as such.
    }
    if (!response.ok) {
      const message = (value as { error?: { message?: unknown } } | null)?.error?.message
      const reason = typeof message === 'string' ? message : text.trim()
      throw new ControlError(path, response.status, text, reason)
    }
    if (!parsed) throw new ControlError(path, response.status, text, 'the answer is not JSON')
    return value as T
  }
  const withQuery = (path: string, query?: Record<string, unknown>) => {
    const given = Object.entries(query ?? {}).filter(([, value]) => value !== undefined)
    if (given.length === 0) return path
    return `${path}?${new URLSearchParams(given.map(([name, value]) => [name, String(value)]))}`
  }
  return {
    get: (path, ...[query]) => request(withQuery(path, query as Record<string, unknown>)),
    post: (path, body) => request(path, body),
    request,
  }
}

export type { ControlRoutes }
