import { http, passthrough, type HttpHandler } from 'msw'
import type { FaultPlanner } from '../../engine/operator/fault-match'
import { bearerToken } from '../../client/wire'
import { joinSharedServer, leaveSharedServer } from '../../node/shared-server'
import type { RemoteService } from '../remote'
import type { ChaosFrame } from './run'

/**
 * A chaos run's frame on an account of a running `serve`: the engine that answers is in another
 * process, so the planner runs here, on the way out. Each request this process sends to the
 * account's base URL (msw sees it) asks the planner for its fault; a fault of the table's kinds
 * is set on the account as a rule for that one call (its endpoint and its bearer token, `count`
 * 1), and the request goes on: the server's engine meets it as any rule (decision 066), `x-fault`
 * and journal included. The lifecycle kinds (`expire`, `roll`, `throttle`'s clock) work through
 * the control plane, as in process. A client that sends two calls to one endpoint with one token
 * at once may see them meet the rule in the other order: chaos reruns tests one at a time.
 */
export function serveChaosFrame(remote: RemoteService): ChaosFrame {
  let handlers: HttpHandler[] | undefined
  const account = `${remote.baseUrl}/_account`
  const route = (planner: FaultPlanner) =>
    http.all(`${remote.baseUrl}/*`, async ({ request }) => {
      if (request.url === account || request.url.startsWith(`${account}/`)) return passthrough()
      const path = new URL(request.url).pathname.slice(new URL(remote.baseUrl).pathname.length)
      const endpoint = path.split('/').filter(Boolean).join('.')
      const token = bearerToken(request.headers.get('authorization')) ?? null
      // Only `expire` reads the role, and asks the service about the token itself: a rolled
      // secret taken for an authorization reaches nothing, and meets nothing.
      const role = token === null ? 'none' : token === remote.secret ? 'secret' : 'authorization'
      const rule = await planner(endpoint, token, role, request.signal)
      if (rule) {
        await remote.control('faults', {
          kind: rule.kind,
          endpoint,
          ...(token === null ? {} : { token }),
          count: 1,
          ...(rule.status === null ? {} : { status: rule.status, retryAfter: rule.retryAfter }),
          ...(rule.kind === 'delay' || rule.kind === 'hang' ? { delayMs: rule.delayMs } : {}),
        })
      }
      return passthrough()
    })
  return {
    plan(planner) {
      if (handlers) leaveSharedServer(handlers)
      handlers = undefined
      if (planner) joinSharedServer((handlers = [route(planner)]))
    },
    // A token the service does not know reaches nothing: an `expire` then does nothing.
    reach: (token) =>
      remote.reach(token).catch(() => ({ stops: { at: null, because: null } })) as ReturnType<
        ChaosFrame['reach']
      >,
    now: () => remote.now(),
    advanceClock: (seconds) => remote.advanceClock(seconds),
    listSecrets: () => remote.listSecrets(),
    rollSecret: (id) => remote.rollSecret(id),
    checkpoint: () => remote.checkpoint(),
    restore: (id) => remote.restore(id),
  }
}
