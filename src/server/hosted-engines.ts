import { createEngine, type Engine, type EngineOptions } from '../engine'
import type { AccountShelf, HostedAccount, ShelvedAccount } from '../storage/sql/account-shelf'
import type { FairShare } from './fair-share'
import { nodeHmac } from './node-hmac'

/** The path prefix of a hosted account. */
export const ACCOUNT_PREFIX = 'a'

/** What a hosted account's engine is made with, beside its own store, clock and secrets. */
export type HostedEngineOptions = Pick<
  EngineOptions,
  'serviceName' | 'limits' | 'strict' | 'exchangeLog'
> & { seed?: string }

/**
 * The engines of the accounts this process has answered for, opened on first use from the
 * shelf, and closed once their account is gone.
 */
export function hostedEngines(
  main: Engine,
  shelf: AccountShelf,
  fairShare: FairShare,
  options: HostedEngineOptions | undefined,
) {
  const engines = new Map<string, Promise<Engine>>()

  async function engineFor(
    account: HostedAccount,
    shelved: ShelvedAccount,
    seed?: string,
  ): Promise<Engine> {
    const { seed: _serverSeed, ...made } = options ?? {}
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

  /** Opens the engine of an account just made, seeded with `seed`. */
  async function start(account: HostedAccount, shelved: ShelvedAccount, seed?: string) {
    const engine = engineFor(account, shelved, seed)
    engines.set(account.id, engine)
    engine.catch(() => engines.delete(account.id))
    await engine
  }

  return {
    hosted,
    start,
    forget,
    prune,
    /** Closes every engine this process opened. */
    close: () => Promise.all([...engines.keys()].map(forget)),
  }
}
