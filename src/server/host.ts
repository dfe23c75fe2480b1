import { createHash, randomBytes } from 'node:crypto'
import {
  bearerToken,
  createEngine,
  ServiceError,
  type Call,
  type Engine,
  type EngineOptions,
  type Reply,
} from '../engine'
import { routeOfSegments, type Route } from '../engine/wire/path'
import { jsonReply, refusal } from '../engine/wire/response'
import { readSeed } from '../engine/auth/random'
import {
  ACCOUNT_ID_PATTERN,
  memoryShelf,
  newAccountId,
  type AccountShelf,
  type HostedAccount,
  type ShelvedAccount,
} from '../storage/sql/account-shelf'
import { createFairShare, type FairShare } from './fair-share'
import { sameSecret } from './gate'
import { createInFlight } from './in-flight'
import { nodeHmac } from './node-hmac'
import { toBase64Url } from '../client/wire'

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
  engine?: Pick<EngineOptions, 'serviceName' | 'limits' | 'strict' | 'exchangeLog'> & {
    seed?: string
  }
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

/** The path prefix of a hosted account. */
export const ACCOUNT_PREFIX = 'a'
const ACCOUNTS_ROUTE = '_accounts'
export const DEFAULT_MAX_ACCOUNTS = 100
/** How long a deleted account's requests in flight may take before its store closes under them. */
const DRAIN_MS = 6_000

const hash = (token: string) => createHash('sha256').update(token).digest('hex')
/** A new control token: `ct_` and 24 random bytes, starting with a letter (no flag reads it as one). */
export const newControlToken = () => `ct_${toBase64Url(randomBytes(24))}`
/** A new secret key: `sk_` and 32 random bytes, as the engine makes them. */
export const newSecretKey = () => `sk_${toBase64Url(randomBytes(32))}`

/**
 * Serves `main` (the server's own account) and, under `/a/<id>/`, any number of isolated
 * accounts made with `POST /_accounts` — each its own secrets, signing key, clock, keys,
 * procedures, faults, strict mode, rate window and journal, so parallel test workers never
 * see each other. Control planes need the server's control token, or the account's own.
 */
export async function createHost(main: Engine, options: HostOptions = {}): Promise<Host> {
  const { controlToken, shelf = memoryShelf(), maxAccounts = DEFAULT_MAX_ACCOUNTS } = options
  const fairShare = options.fairShare ?? createFairShare()
  /** The engines of the accounts this process has answered for, opened on first use. */
  const engines = new Map<string, Promise<Engine>>()
  const inFlight = createInFlight()
  /** Accounts being deleted through this process: their new requests are answered 404. */
  const deleting = new Set<string>()

  async function engineFor(
    account: HostedAccount,
    shelved: ShelvedAccount,
    seed?: string,
  ): Promise<Engine> {
    const { seed: _serverSeed, ...made } = options.engine ?? {}
    const engine = createEngine({
      ...(seed === undefined ? {} : { seed }),
      ...made,
      serviceName: made.serviceName ?? main.settings.serviceName,
      ...shelved,
      baseUrl: `http://localhost/${ACCOUNT_PREFIX}/${account.id}`,
      // Its address is the one its clients call it by: `POST /_accounts` answers it so too.
      linksByRequest: true,
      secrets: account.secrets,
      hmac: nodeHmac,
      turns: fairShare.account(account.id),
    })
    await engine.start()
    return engine
  }

  /** The account as the shelf has it now, and its engine; none once it is removed anywhere. */
  async function hosted(
    id: string,
  ): Promise<{ account: HostedAccount; engine: Engine } | undefined> {
    const account = await shelf.find(id)
    if (!account) {
      await forget(id)
      return undefined
    }
    let engine = engines.get(id)
    if (!engine) {
      engine = shelf.open(id).then((shelved) => engineFor(account, shelved))
      engines.set(id, engine)
      engine.catch(() => engines.delete(id))
    }
    return { account, engine: await engine }
  }

  /** Closes this process's engine of an account, if it has one. */
  async function forget(id: string): Promise<void> {
    const engine = engines.get(id)
    if (!engine) return
    engines.delete(id)
    await (await engine.catch(() => undefined))?.settings.store.close()
  }

  /** Whether the request carries the server's control token (or one of `also`). */
  function holds(call: Call, also?: string): boolean {
    if (controlToken === undefined) return true
    const given = bearerToken(call.header('authorization'))
    if (given === undefined) return false
    return sameSecret(given, controlToken) || (also !== undefined && sameSecret(hash(given), also))
  }

  const needsToken = () =>
    refusal(
      401,
      'the account control plane needs the control token: send authorization: bearer <control token>, as serve printed it at start (or as POST /_accounts returned it)',
    )

  /**
   * Closes this process's engines of accounts removed through another process (over a shared
   * shelf), which no request here would notice: done as each account is made, so that a
   * long-running server keeps no more engines than accounts.
   */
  async function prune(): Promise<void> {
    // Engines opened from here on are of accounts the list below holds.
    const opened = [...engines.keys()]
    if (opened.length === 0) return
    const kept = new Set((await shelf.list()).map(({ id }) => id))
    await Promise.all(opened.filter((id) => !kept.has(id)).map(forget))
  }

  /** `POST /_accounts`' body: none, or `{"seed": …}` (decision 086). */
  async function seedOf(call: Call): Promise<string | undefined | Reply> {
    const text = new TextDecoder().decode(await call.body(4096))
    if (text.trim() === '') return undefined
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return refusal(400, 'the body must be JSON: {"seed": "…"}, or nothing')
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return refusal(400, 'the body must be a JSON object: {"seed": "…"}, or nothing')
    }
    const { seed, ...rest } = body as Record<string, unknown>
    if (Object.keys(rest).length > 0) {
      return refusal(
        400,
        `an account is made with a seed, or with nothing: not ${Object.keys(rest).join(', ')}`,
      )
    }
    if (seed === undefined || seed === null) return undefined
    const read = readSeed(seed)
    return typeof read === 'string' ? read : refusal(400, read.problem)
  }

  async function createAccount(call: Call): Promise<Reply> {
    const seed = await seedOf(call)
    if (typeof seed === 'object') return seed
    await prune()
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
    const engine = engineFor(account, shelved, seed ?? options.engine?.seed)
    engines.set(account.id, engine)
    engine.catch(() => engines.delete(account.id))
    await engine
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
      await forget(id)
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
      return await hosted(id)
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
      await Promise.all([...engines.keys()].map(forget))
    },
  }
}
