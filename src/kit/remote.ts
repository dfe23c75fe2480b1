import type { ExchangePage, FaultRule } from '../engine'
import { authorizeThrough } from '../client/authorize'
import { checkDuration, checkMoment } from '../client/times'
import { ControlError, controlClient } from '../client/control'
import { checkFilter, describeExchange, matches } from '../client/journal'
import { exchangeId, respondRule, type ServiceControls } from '../client/service-controls'

/** A service reached over its wire: calls at `baseUrl`, its control plane at `baseUrl/_account`. */
export interface RemoteService extends ServiceControls<false> {
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
  const client = controlClient({ baseUrl, send, ...(controlToken ? { token: controlToken } : {}) })
  /** What went wrong, said as the kit says it: the path, the control plane's reason, the status. */
  const said = <T>(asked: Promise<T>) =>
    asked.catch((error: unknown) => {
      if (!(error instanceof ControlError)) throw error
      throw new Error(`${error.path}: ${error.reason} (${error.status})`)
    })

  return {
    baseUrl,
    serviceName,
    secret,
    control: (path, body) => said(client.request(path, body)),
    authorize: (abilities, options) =>
      authorizeThrough(send, { baseUrl, serviceName, token: secret }, abilities, options),
    advanceClock: async (seconds) => {
      checkDuration('advanceClock', seconds)
      return (await said(client.post('clock', { advance: seconds }))).now
    },
    now: async () => (await said(client.get('clock'))).now,
    createSecret: (key) => said(client.post('secrets', key === undefined ? {} : { key })),
    rollSecret: async (id, at) => {
      checkMoment('at', at)
      return said(
        client.post(`secrets/${encodeURIComponent(id)}/roll`, at === undefined ? {} : { at }),
      )
    },
    listSecrets: () => said(client.get('secrets')),
    async fault(options) {
      const rules: FaultRule[] = await said(client.post('faults', options))
      return rules.at(-1)!
    },
    async respond(endpoint, answer, options) {
      const rules: FaultRule[] = await said(
        client.post('faults', respondRule(endpoint, answer, options)),
      )
      return rules.at(-1)!
    },
    async clearFaults(id) {
      await said(
        id === undefined
          ? client.post('faults/clear', {})
          : client.post(`faults/${encodeURIComponent(id)}/clear`, {}),
      )
    },
    async requests(filter) {
      checkFilter('requests', filter)
      const { exchanges }: ExchangePage = await said(client.get('exchanges'))
      const all = exchanges.reverse().map(describeExchange)
      return filter ? all.filter((request) => matches(request, filter)) : all
    },
    async reset() {
      await said(client.post('reset', {}))
    },
    checkpoint: () => said(client.post('checkpoint', {})),
    rewind: (exchange, name) =>
      said(client.post('rewind', { before: exchangeId(exchange), ...(name ? { name } : {}) })),
    branches: () => said(client.get('branches')),
    switchBranch: (id) => said(client.post(`branches/${encodeURIComponent(id)}/switch`, {})),
    recording: async (from) =>
      said(
        client.get('recording', { from: from ?? (await said(client.get('branches'))).oldest ?? 1 }),
      ),
    async restore(id) {
      await said(client.post('restore', { id }))
    },
    reach: (token, at) => said(client.post('reach', at === undefined ? { token } : { token, at })),
    simulate: (token, calls, at) =>
      said(client.post('simulate', at === undefined ? { token, calls } : { token, calls, at })),
    diff: (a, b, at) => said(client.post('diff', at === undefined ? { a, b } : { a, b, at })),
    leastPrivilege: (token) =>
      said(client.post('least-privilege', token === undefined ? {} : { token })),
  }
}
