import type { Checkpoint, ExchangeRecord, FaultRule, SecretView } from '../engine'
import { checkDuration, checkMoment } from '../client/times'
import type { FaultOptions } from '../node'
import { authorizeThrough, type AuthorizeOptions } from '../client/authorize'
import {
  describeExchange,
  matches,
  type ReceivedRequest,
  type RequestFilter,
} from '../client/journal'

/** A service reached over its wire: calls at `baseUrl`, its control plane at `baseUrl/_account`. */
export interface RemoteService {
  baseUrl: string
  serviceName: string
  /** The first secret key. */
  secret: string
  authorize(abilities: string[], options?: AuthorizeOptions): Promise<string>
  advanceClock(seconds: number): Promise<number>
  now(): Promise<number>
  createSecret(key?: string): Promise<SecretView>
  rollSecret(id: string, at?: number): Promise<SecretView>
  listSecrets(): Promise<SecretView[]>
  fault(options: FaultOptions): Promise<FaultRule>
  clearFaults(id?: string): Promise<void>
  /** The requests received since the last reset, oldest first. */
  requests(filter?: RequestFilter): Promise<ReceivedRequest[]>
  /** Back to the state the service started in (see the Node API's `reset`). */
  reset(): Promise<void>
  /** Keeps the whole state as it stands on top of the stack of checkpoints (decision 065). */
  checkpoint(): Promise<Checkpoint>
  /** Puts back the state at checkpoint `id`; it and every later one are removed. */
  restore(id: string): Promise<void>
  /** Sends a control-plane request: `GET` without a body, `POST` with one. */
  control<T>(path: string, body?: unknown): Promise<T>
}

export interface RemoteOptions {
  baseUrl: string
  serviceName: string
  secret: string
  /** How requests reach the service: `fetch`, or an engine's `handle`. */
  send: (request: Request) => Promise<Response>
  /** The control token, where the control plane asks for one. */
  controlToken?: string
}

/** The Node API's account methods, over any service that has our control plane. */
export function remoteService({
  baseUrl,
  serviceName,
  secret,
  send,
  controlToken,
}: RemoteOptions): RemoteService {
  async function control<T>(path: string, body?: unknown): Promise<T> {
    const response = await send(
      new Request(`${baseUrl}/_account/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          ...(controlToken ? { authorization: `Bearer ${controlToken}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }),
    )
    const text = await response.text()
    if (!response.ok) {
      const message = (JSON.parse(text) as { error?: { message?: string } }).error?.message
      throw new Error(`${path}: ${message ?? text} (${response.status})`)
    }
    return JSON.parse(text) as T
  }

  return {
    baseUrl,
    serviceName,
    secret,
    control,
    authorize: (abilities, options) =>
      authorizeThrough(send, { baseUrl, serviceName, token: secret }, abilities, options),
    advanceClock: async (seconds) => {
      checkDuration('advanceClock', seconds)
      return (await control<{ now: number }>('clock', { advance: seconds })).now
    },
    now: async () => (await control<{ now: number }>('clock')).now,
    createSecret: (key) => control('secrets', key === undefined ? {} : { key }),
    rollSecret: async (id, at) => {
      checkMoment('at', at)
      return control(`secrets/${encodeURIComponent(id)}/roll`, at === undefined ? {} : { at })
    },
    listSecrets: () => control('secrets'),
    async fault(options) {
      const rules = await control<FaultRule[]>('faults', options)
      return rules.at(-1)!
    },
    async clearFaults(id) {
      await control(
        id === undefined ? 'faults/clear' : `faults/${encodeURIComponent(id)}/clear`,
        {},
      )
    },
    async requests(filter) {
      const { exchanges } = await control<{ exchanges: ExchangeRecord[] }>('exchanges')
      const all = exchanges.reverse().map(describeExchange)
      return filter ? all.filter((request) => matches(request, filter)) : all
    },
    async reset() {
      await control('reset', {})
    },
    checkpoint: () => control('checkpoint', {}),
    async restore(id) {
      await control('restore', { id })
    },
  }
}
