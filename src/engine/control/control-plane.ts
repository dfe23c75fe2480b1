import type { Account } from '../account/account'
import { InvalidError, MethodError, UndefinedError } from '../errors'
import { MAX_JOURNAL_BYTES } from '../operator/exchange-log'
import type { Registry } from '../packages'
import type { Json } from '../store'
import type { Call } from '../wire/call'
import { errorReply, jsonReply, type Reply } from '../wire/response'
import type { ControlRoute, EndpointInfo } from './control-routes'
import { jsonAnswerInTurns, tallyInTurns } from './in-turns'
import { bodyLimitOf, routeTable, TAKES_TURNS, type Handler } from './route-table'
import {
  afterOf,
  callsOf,
  decodeSegment,
  exchangeOf,
  optional,
  readJsonObject,
  required,
  seedOf,
  textOf,
  tokensOf,
} from './request-fields'
import { readFaultRule } from '../operator/read-fault-rule'
import {
  coverageReport,
  readCoverageRequest,
  readResource,
  readLeastPrivilegeRequest,
  type Insight,
} from '../insight'
import type { InsightRun } from '../insight/context'
import type { AccountTurns } from '../runtime/turns'
import type { Checkpoints } from '../operator/checkpoints'
import { compareBranches } from '../history/compare-branches'
import type { History } from '../history/history'
import { readMark, recordingOf } from '../history/recording'
import type { OperatorState } from '../operator/state'

/** The most exchanges a journal keeps. */
export const MAX_JOURNAL = 10_000

/**
 * The account control plane under `<baseUrl>/_account/` (`control-routes.ts` declares each
 * route, its body and its answer): JSON in, JSON out. It answers no other origin (no CORS
 * headers), and a POST must say `content-type: application/json`, which a page on another
 * origin cannot send without a preflight that is refused: no web page the user visits can read
 * the secrets or wipe the account. Over HTTP, `serve` also asks for its control token.
 */
export function createControlPlane({
  account,
  insight,
  registry,
  serviceName,
  maxBodyBytes,
  operator,
  reset,
  checkpoints,
  history,
  replayCall,
  baseUrl,
  turns,
}: {
  account: Account
  insight: Insight
  registry: Registry
  serviceName: string
  maxBodyBytes: number
  operator: OperatorState
  /** The engine's one reset: see `Engine.reset`. */
  reset: (options?: { seed?: string | null }) => Promise<void>
  checkpoints: Checkpoints
  history: History
  /** Answers an endpoint call from inside a replay, which holds the account alone. */
  replayCall: (call: Call) => Promise<unknown>
  baseUrl: string
  /** The account's turns on a server that hosts several (see `EngineOptions.turns`). */
  turns?: AccountTurns
}) {
  const { faults, journal } = operator
  const strictReport = async () => {
    const [{ strict: enabled }, requests] = await Promise.all([
      operator.view(),
      operator.strict.report(),
    ])
    return { enabled, requests }
  }
  const handlers: { [K in ControlRoute]: Handler<K> } = {
    'GET secrets': () => account.listSecrets(),
    'POST secrets': (body) => account.createSecret({ key: optional(body, 'key', 'string') }),
    'POST secrets/:id/roll': (body, [id]) =>
      account.rollSecret(id!, { at: optional(body, 'at', 'number') }),
    'POST secrets/:id/cancel-roll': (_body, [id]) => account.cancelRoll(id!),
    'GET clock': async () => ({ now: await account.now(), still: account.seed() !== undefined }),
    'POST clock': async (body) => ({
      now: await account.advanceClock(required(body, 'advance', 'number')),
    }),
    'POST reset': async (body) => (await reset(seedOf(body)), { ok: true }),
    'GET seed': async () => ({ seed: account.seed() ?? null }),
    'POST checkpoint': () => checkpoints.checkpoint(),
    'POST restore': (body) => checkpoints.restore(required(body, 'id', 'string')),
    'GET checkpoints': async () => checkpoints.list(),
    'GET faults': () => faults.list(),
    'POST faults': async (body) => (await faults.add(readFaultRule(body, registry)), faults.list()),
    'POST faults/clear': async () => (await faults.clear(), []),
    'POST faults/:id/clear': async (_body, [id]) => {
      if (!(await faults.remove(id!))) throw new UndefinedError(`no fault \`${id}'`)
      return faults.list()
    },
    'GET rate-limit': async () => (await operator.view()).rateLimit,
    'POST rate-limit': async (body) => {
      const enforce = required(body, 'enforce', 'boolean')
      const { rateLimit } = await operator.view()
      const limit = optional(body, 'limit', 'number') ?? rateLimit.limit
      const windowSeconds = optional(body, 'windowSeconds', 'number') ?? rateLimit.windowSeconds
      if (!Number.isInteger(limit) || limit < 1 || !(windowSeconds > 0)) {
        throw new InvalidError(
          "`limit' must be a whole number of calls, at least 1, and `windowSeconds' more than 0",
        )
      }
      const changed = { enforce, limit, windowSeconds }
      await operator.rate.set(changed)
      return changed
    },
    'GET strict': strictReport,
    'POST strict': async (body) => {
      const enabled = required(body, 'enabled', 'boolean')
      await operator.strict.set(enabled)
      return { enabled, requests: [] }
    },
    'GET export': () => account.exportSnapshot(),
    'POST import': async (body) => (await account.importSnapshot(body), { ok: true }),
    'POST inspect': (body) => account.inspect(required(body, 'token', 'string')),
    'GET endpoints': async () => describeEndpoints(registry),
    'GET procedures': () => account.listProcedures(),
    'GET buckets': () => account.listBuckets(),
    'POST reach': (body, _params, _query, run) =>
      insight.reach(required(body, 'token', 'string'), optional(body, 'at', 'number'), run),
    'POST simulate': (body, _params, _query, run) =>
      insight.simulate(
        required(body, 'token', 'string'),
        callsOf(body),
        optional(body, 'at', 'number'),
        run,
      ),
    'POST diff': (body, _params, _query, run) =>
      insight.diff(
        required(body, 'a', 'string'),
        required(body, 'b', 'string'),
        optional(body, 'at', 'number'),
        run,
      ),
    'POST who-reaches': (body, _params, _query, run) =>
      insight.whoReaches(
        readResource(body.resource),
        tokensOf(body),
        optional(body, 'at', 'number'),
        run,
      ),
    'GET watches': (_body, _params, _query, run) => insight.watches(run),
    'POST watches': (body, _params, _query, run) => insight.addWatch(body, run),
    'POST watches/:id/delete': (_body, [id], _query, run) => insight.removeWatch(id!, run),
    'POST coverage': async (body, _params, _query, run) => {
      const { entries, tally, skipped } = readCoverageRequest(body)
      const all = entries ?? (await journal.list(0))
      const report = coverageReport(await tallyInTurns(all, tally, run))
      return skipped === undefined ? report : { ...report, skipped }
    },
    'POST rewind': (body) =>
      history.rewind(required(body, 'before', 'number'), optional(body, 'name', 'string')),
    'GET branches': async () => history.list(),
    'POST branches/:id/switch': (_body, [id]) => history.switchTo(id!),
    'POST branches/:id/name': async (body, [id]) =>
      history.rename(id!, required(body, 'name', 'string')),
    'POST branches/:id/delete': async (_body, [id]) => (history.remove(id!), history.list()),
    'GET branches/compare': async (_body, _params, query) =>
      compareBranches(history, textOf(query, 'a'), textOf(query, 'b')),
    'POST replay': (body) =>
      history.replay(required(body, 'from', 'number'), optional(body, 'to', 'number'), replayCall),
    'GET recording': async (_body, _params, query) => {
      const from = exchangeOf(query, 'from')
      const to = query.has('to') ? exchangeOf(query, 'to') : undefined
      return recordingOf(await history.recording(from, to), {
        serviceName,
        baseUrl,
        seed: account.seed() ?? null,
        maxBodyBytes,
      })
    },
    'POST replay/state': (body) =>
      history.gate.exclusive(async () => {
        // An account as a change left it: imported before the controls are set.
        if (body.account !== undefined) await account.importSnapshot(body.account)
        if (body.mark !== undefined && body.mark !== null) {
          await history.place(readMark(body.mark, MAX_JOURNAL))
        }
        const after = optional(body, 'after', 'number')
        if (after === undefined) return { exchanges: [] }
        const since = afterOf(new URLSearchParams({ after: String(after) }))
        return { exchanges: (await journal.list(since)).reverse() }
      }),
    'POST least-privilege': async (body, _params, _query, run) => {
      const { entries, token, skipped } = readLeastPrivilegeRequest(body)
      const report = await insight.leastPrivilege(entries ?? (await journal.list(0)), {
        ...(token === undefined ? {} : { token }),
        run,
      })
      return skipped === undefined ? report : { ...report, skipped }
    },
    'GET exchanges': async (_body, _params, query) => {
      const after = afterOf(query)
      const [{ journal: capacity }, exchanges] = await Promise.all([
        operator.view(),
        journal.list(after),
      ])
      return { capacity, maxBytes: MAX_JOURNAL_BYTES, exchanges }
    },
    'POST exchanges': async (body) => {
      const capacity = required(body, 'capacity', 'number')
      if (!Number.isInteger(capacity) || capacity < 0 || capacity > MAX_JOURNAL) {
        throw new InvalidError(
          `\`capacity' must be a whole number of exchanges from 0 (off) to ${MAX_JOURNAL}`,
        )
      }
      await journal.setCapacity(capacity)
      return { capacity }
    },
    'POST exchanges/clear': async () => (await journal.clear(), { ok: true }),
  }

  const routes = routeTable(handlers)

  /** Answers a control-plane request; `path` is what follows `_account/`. */
  return async function control(call: Call, path: string): Promise<Reply> {
    try {
      const matching = routes.filter(({ pattern }) => pattern.test(path))
      if (matching.length === 0) throw new UndefinedError(`no account route \`${path}'`)
      const found = matching.find(({ method }) => method === call.method)
      if (!found) throw new MethodError(matching.map(({ method }) => method).join(', '))
      const params = found.pattern.exec(path)!.slice(1).map(decodeSegment)
      const limit = bodyLimitOf(path, maxBodyBytes)
      const answer = async (run: InsightRun) => {
        const body = call.method === 'GET' ? {} : await readJsonObject(call, limit, run.pause)
        const handle = () => found.handler(body, params, new URLSearchParams(call.search), run)
        // A move through the history holds the account alone; the rest share it (`gate.ts`).
        const answered = await (found.alone ? handle() : history.gate.shared(handle))
        return run.pause
          ? jsonAnswerInTurns(answered as Json, run.pause)
          : jsonReply(200, answered as Json)
      }
      const signal = call.signal
      const run = signal ? { signal } : {}
      return turns && TAKES_TURNS.has(path)
        ? await turns.admit((pause) => answer({ ...run, pause }), signal)
        : await answer(run)
    } catch (error) {
      return errorReply(error, 'json', serviceName, { cors: false })
    }
  }
}

/** What `GET endpoints` lists: each endpoint of the registry as the page shows it. */
function describeEndpoints(registry: Registry): EndpointInfo[] {
  return registry.list().map((endpoint) => ({
    name: endpoint.name,
    summary: endpoint.summary,
    insecure: endpoint.insecure === true,
    input: endpoint.input ?? null,
    args: endpoint.args ?? {},
  }))
}
