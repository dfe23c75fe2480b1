import { ServiceError, type Call, type Engine, type Reply } from '../engine'
import { routeOfSegments, type Route } from '../engine/wire/path'
import { jsonReply, refusal } from '../engine/wire/response'
import {
  ACCOUNT_ID_PATTERN,
  memoryShelf,
  newAccountId,
  type AccountShelf,
  type HostedAccount,
} from '../storage/sql/account-shelf'
import { seedOf } from './account-seed'
import { createFairShare, type FairShare } from './fair-share'
import { hash, holdsToken, needsToken, newControlToken, newSecretKey } from './host-tokens'
import { ACCOUNT_PREFIX, hostedEngines, type HostedEngineOptions } from './hosted-engines'
import { createInFlight } from './in-flight'

export { newControlToken, newSecretKey } from './host-tokens'
export { ACCOUNT_PREFIX } from './hosted-engines'

export interface HostOptions {
  /**
   * The server's control token: it opens `/_accounts` and every account's control plane. Without
   * one everything is open, as the page's own control plane is: only for a server no one else
   * can reach.
   */
  controlToken?: string
  /** Where hosted accounts live; in memory by default. */
  shelf?: AccountShelf
  /** How many accounts may be hosted beside the server's own; 100 by default. */
  maxAccounts?: number
  /**
   * What a hosted account's engine is made with, beside its own store, clock and secrets; its
   * `seed`, for an account whose `POST /_accounts` names none.
   */
  engine?: HostedEngineOptions
  /**
   * How the accounts' evaluations share the process (decision 072); one of its own by default.
   * Give the server's own engine `fairShare.account('')` to count it among them.
   */
  fairShare?: FairShare
}

/** A server's own account and the accounts it hosts under `/a/<id>`, behind their tokens. */
export interface Host {
  /**
   * Answers a request to the server: its path read once, the hosted account it names found
   * once, the control token checked on that reading, and the request given to the account's
   * engine with the route below the account's prefix.
   */
  answer(call: Call): Promise<Reply>
  /** Closes every hosted account's store (the server's own is its owner's to close). */
  close(): Promise<void>
}

const ACCOUNTS_ROUTE = '_accounts'
export const DEFAULT_MAX_ACCOUNTS = 100
/** How long a deleted account's requests in flight may take before its store closes under them. */
const DRAIN_MS = 6_000

/**
 * Serves `main` (the server's own account) and, under `/a/<id>/`, any number of isolated
 * accounts made with `POST /_accounts` — each its own secrets, signing key, clock, keys,
 * procedures, faults, strict mode, rate window and journal, so parallel test workers never
 * see each other. Control planes need the server's control token, or the account's own.
 */
export async function createHost(main: Engine, options: HostOptions = {}): Promise<Host> {
  const { controlToken, shelf = memoryShelf(), maxAccounts = DEFAULT_MAX_ACCOUNTS } = options
  const fairShare = options.fairShare ?? createFairShare()
  const engines = hostedEngines(main, shelf, fairShare, options.engine)
  const holds = (call: Call, also?: string) => holdsToken(call, controlToken, also)
  const inFlight = createInFlight()
  /** Accounts being deleted through this process: their new requests are answered 404. */
  const deleting = new Set<string>()

  async function createAccount(call: Call): Promise<Reply> {
    const seed = await seedOf(call)
    if (typeof seed === 'object') return seed
    await engines.prune()
    const control = newControlToken()
    const account: HostedAccount = {
      id: newAccountId(),
      createdAt: Date.now() / 1000,
      controlTokenHash: hash(control),
      secrets: [newSecretKey()],
    }
    const shelved = await shelf.add(account, maxAccounts)
    if (!shelved) {
      return refusal(
        507,
        `this server hosts at most ${maxAccounts} accounts (--max-accounts): delete one with DELETE /${ACCOUNTS_ROUTE}/<id> first`,
      )
    }
    if ((seed ?? options.engine?.seed) !== undefined && shelved.operator) {
      await shelf.remove(account.id)
      await shelf.destroy(account.id)
      return refusal(
        400,
        'a seeded account keeps its history in the one process that answers it: this server keeps its accounts in PostgreSQL, where several may; make it without a seed',
      )
    }
    await engines.start(account, shelved, seed ?? options.engine?.seed)
    const baseUrl = `${call.origin}/${ACCOUNT_PREFIX}/${account.id}`
    return jsonReply(201, {
      id: account.id,
      baseUrl,
      secret: account.secrets[0]!,
      controlToken: control,
      seed: seed ?? options.engine?.seed ?? null,
    })
  }

  async function serveAccounts(call: Call, rest: readonly string[]): Promise<Reply> {
    if (!holds(call)) return needsToken()
    const [id, ...more] = rest
    if (id === undefined) {
      if (call.method === 'POST') return createAccount(call)
      if (call.method === 'GET') {
        return jsonReply(
          200,
          (await shelf.list()).map((account) => ({
            id: account.id,
            baseUrl: `${call.origin}/${ACCOUNT_PREFIX}/${account.id}`,
            createdAt: account.createdAt,
          })),
        )
      }
      return refusal(405, 'use POST to create an account, GET to list them', {
        allow: 'GET, POST',
      })
    }
    const found = more.length === 0 && ACCOUNT_ID_PATTERN.test(id) && (await shelf.find(id))
    if (!found) return refusal(404, `no account \`${id}'`)
    if (call.method !== 'DELETE') {
      return refusal(405, `use DELETE /${ACCOUNTS_ROUTE}/${id} to remove the account`, {
        allow: 'DELETE',
      })
    }
    // Gone for every process at once; its requests in flight here finish before its store
    // closes and its data goes (any still running then meet it closed, and are answered 404).
    deleting.add(id)
    try {
      await shelf.remove(id)
      await inFlight.drained(id, DRAIN_MS)
      await engines.forget(id)
      await shelf.destroy(id)
    } finally {
      deleting.delete(id)
    }
    return { status: 204, headers: {}, body: '' }
  }

  /** Whether the account is gone: deleted through this process, or no longer listed. */
  const gone = async (id: string) => deleting.has(id) || !(await shelf.find(id).catch(() => true))

  /** `hosted`, where an account deleted as its engine opens is one that is gone. */
  async function opened(id: string) {
    try {
      return await engines.hosted(id)
    } catch (error) {
      if (error instanceof ServiceError && error.status >= 500 && (await gone(id))) return undefined
      throw error
    }
  }

  const deleted = (id: string) =>
    refusal(404, `no account \`${id}' on this server: it has been deleted`)

  /** A hosted account's answer; one its deletion cut short is the 404 of an account that is gone. */
  async function answerHosted(id: string, engine: Engine, call: Call, below: Route) {
    const reply = await inFlight.track(id, () => engine.answer(call, below))
    if (reply.status < 500) return reply
    return (await gone(id)) ? deleted(id) : reply
  }

  /**
   * Answers a request, saying so when the shelf cannot be reached (its database is away, its
   * disk full); any other error is the server's fault: logged with the request, and a 500 in
   * the engine's JSON error format.
   */
  async function answer(call: Call): Promise<Reply> {
    try {
      return await route(call)
    } catch (error) {
      if (error instanceof ServiceError) return refusal(error.status, error.message, error.headers)
      console.error(`error: ${call.method} ${call.pathname}:`, error)
      return refusal(500, 'internal error: the server failed on this request, and logged why')
    }
  }

  async function route(call: Call): Promise<Reply> {
    // The path's one reading: the server's own account has no path of its own.
    const route = main.route(call.pathname)
    if (route.kind !== 'call') {
      if (route.kind === 'control' && !holds(call)) return needsToken()
      return main.answer(call, route)
    }
    const segments = route.path === '' ? [] : route.path.split('/')
    const [first, second] = segments
    if (first === ACCOUNTS_ROUTE) return serveAccounts(call, segments.slice(1))
    if (first !== ACCOUNT_PREFIX || second === undefined) return main.answer(call, route)
    if (deleting.has(second)) return deleted(second)
    const found = ACCOUNT_ID_PATTERN.test(second) ? await opened(second) : undefined
    if (!found) return refusal(404, `no account \`${second}' on this server`)
    const below = routeOfSegments(segments.slice(2))
    if (below.kind === 'control' && !holds(call, found.account.controlTokenHash)) {
      return needsToken()
    }
    return answerHosted(second, found.engine, call, below)
  }

  return {
    answer,
    async close() {
      await engines.close()
    },
  }
}
