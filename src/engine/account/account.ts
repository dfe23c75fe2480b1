import { fromBase64Url, toBase64Url } from '../bytes'
import { identify, type TokenDetails } from '../auth/credentials'
import type { HmacFactory } from '../auth/hmac'
import { platformBytes, platformRandom, seededRandom, type Random } from '../auth/random'
import { secretsChanged, useHmac } from '../auth/secret-index'
import { createSigner, type Signer } from '../auth/signer'
import { accountClock, MAX_CLOCK_ADVANCE, nowSeconds, type Clock } from '../clock'
import { InvalidError } from '../errors'
import type { BucketCount, Json, ProcRecord, Store, StoreSnapshot } from '../store'
import { update } from './update'
import { usageRecord } from './usage'
import { cancelRoll, createSecret, rollSecret, viewSecret, type SecretView } from './secrets'
import {
  CLOCK_OFFSET,
  isClockOffset,
  readSnapshot,
  SEED,
  SIGNING_KEY,
  SNAPSHOT_FORMAT,
  SNAPSHOT_VERSION,
  type AccountSnapshot,
  type SnapshotLimits,
} from './snapshot'

export { MAX_CLOCK_ADVANCE }

/** What the playground may learn about a token it holds. */
export interface TokenReport {
  state: 'usable' | 'expired' | 'invalid'
  reason?: string
  details?: TokenDetails
}

/**
 * Account settings: secrets, the virtual clock, reset, export and import. The control plane
 * (`/_account/...`) and the Node API both call these; no bearer token reaches them.
 */
export interface Account {
  listSecrets(): Promise<SecretView[]>
  createSecret(options?: { key?: string }): Promise<SecretView>
  /** Rolls now, or at `at` (Unix seconds); returns the replacement. */
  rollSecret(id: string, options?: { at?: number }): Promise<SecretView>
  /** Cancels a scheduled roll: the secret lives on; returns it. */
  cancelRoll(id: string): Promise<SecretView>
  /** Unix seconds on the virtual clock. */
  now(): Promise<number>
  /** Moves the virtual clock forward and returns the new time. */
  advanceClock(seconds: number): Promise<number>
  reset(): Promise<void>
  exportSnapshot(): Promise<AccountSnapshot>
  importSnapshot(snapshot: unknown): Promise<void>
  /**
   * Puts back a copy of the store as `Store.snapshot()` gave it (from this account, so not
   * checked), with the clock where it was: `clockOffset` is the clock's own offset then, and
   * `at` (milliseconds) the time a seeded account's clock stood at.
   */
  restoreState(snapshot: StoreSnapshot, clockOffset: number, at?: number): Promise<void>
  inspect(token: string): Promise<TokenReport>
  /** Every stored procedure, by name. */
  listProcedures(): Promise<ProcRecord[]>
  /** Every key-value bucket with its count of keys, by name. */
  listBuckets(): Promise<BucketCount[]>
  /** The account's signer, made on first use. */
  signer(): Promise<Signer>
  /** The account's seed (decision 086); `undefined` while it draws from the platform. */
  seed(): string | undefined
  /**
   * Gives the account a seed, or none (kept in the store, so that an export carries it): its
   * clock stands still from then on at the whole second it shows, or follows real time again.
   */
  setSeed(seed: string | undefined): Promise<void>
  /** Takes up the seed the store holds (after an import or a rewind), with the clock to match. */
  loadSeed(): Promise<void>
  /**
   * Takes up the store as a move through the account's history left it: its signing key, its
   * clock's offset and its seed, a seeded account's clock standing at `at` (milliseconds).
   */
  resync(at: number): Promise<void>
  /** Where the account's random values come from: its seeded generator, or the platform. */
  random(): Promise<Random>
  /**
   * The same, as last made: every change of the seed or the signing key through the account
   * (a reset, an import, a restore, a new seed) makes it again before it answers.
   */
  randomNow(): Random
  /**
   * Catches the clock up with the stored offset (another tab or process may have moved it),
   * read from the store unless given as read already.
   */
  syncClock(stored?: Json): Promise<void> | void
}

export function createAccount(
  store: Store,
  clock: Clock,
  serviceName: string,
  /** What an import is held to: the account's quota and body limit; the defaults otherwise. */
  limits?: SnapshotLimits,
  /** Signs and verifies tokens and finds secret keys; WebCrypto's when not given. */
  hmac?: HmacFactory,
): Account {
  useHmac(store, hmac)
  const own = accountClock(clock)
  let cached: { key: string; signer: Promise<Signer> } | undefined
  let seed: string | undefined
  let generator: { key: string; seed: string; random: Promise<Random> } | undefined
  let current: Random = platformRandom

  async function signingKey(): Promise<string> {
    let key = await store.getMeta(SIGNING_KEY)
    if (typeof key !== 'string') {
      await store.commit([
        { op: 'initMeta', key: SIGNING_KEY, value: toBase64Url(platformBytes('signing-key', 32)) },
      ])
      key = await store.getMeta(SIGNING_KEY)
    }
    return key as string
  }

  /** Stands the clock still for a seeded account (at `at`, or the whole second it shows). */
  function standFor(at?: number): void {
    if (seed === undefined) own.stand(false)
    else if (!own.still || at !== undefined)
      own.stand(true, at ?? Math.floor(own.now() / 1000) * 1000)
  }

  async function random(): Promise<Random> {
    if (seed === undefined) return platformRandom
    const key = await signingKey()
    if (generator?.key !== key || generator.seed !== seed) {
      const raw = fromBase64Url(key)
      if (!raw || raw.length < 16) throw new Error('the stored signing key is malformed')
      generator = { key, seed, random: Promise.resolve(seededRandom(seed, raw, hmac)) }
    }
    return (current = await generator.random)
  }

  /** Makes the account's generator again after its seed or signing key may have changed. */
  async function renew(): Promise<void> {
    current = platformRandom
    await random()
  }

  async function signer(): Promise<Signer> {
    const key = await signingKey()
    if (cached && cached.key === key) return cached.signer
    const raw = typeof key === 'string' ? fromBase64Url(key) : undefined
    if (!raw || raw.length < 16) throw new Error('the stored signing key is malformed')
    cached = { key: key as string, signer: createSigner(raw, hmac) }
    return cached.signer
  }

  // The stored offset this engine's clock last followed or wrote. Another tab or process may
  // move the clock, or reset the account (the offset is then gone: real time again): the clock
  // follows each change of the store by its difference, so what was moved on the clock directly
  // (tests do) stays moved, and it never goes back past real time.
  let followed = 0

  function follow(stored: number): void {
    if (stored === followed) return
    own.advance(Math.max(stored - followed, -own.offset))
    followed = stored
  }

  // At once when the offset is given (the operator's view read it): no promise per call then.
  function syncClock(given?: Json): Promise<void> | void {
    if (given !== undefined) return followStored(given)
    return store.getMeta(CLOCK_OFFSET).then(followStored)
  }

  function followStored(given: Json | undefined): void {
    const stored = given ?? 0
    // An offset out of bounds (written before bounds were kept) is ignored, never followed.
    if (isClockOffset(stored)) follow(stored)
  }

  const now = async () => {
    await syncClock()
    return nowSeconds(own)
  }

  return {
    signer,
    syncClock,
    now,
    seed: () => seed,
    async setSeed(given) {
      await store.commit([
        given === undefined
          ? { op: 'deleteMeta', key: SEED }
          : { op: 'putMeta', key: SEED, value: given },
      ])
      seed = given
      standFor()
      await renew()
    },
    async loadSeed() {
      const stored = await store.getMeta(SEED)
      seed = typeof stored === 'string' ? stored : undefined
      standFor()
      await renew()
    },
    async resync(at) {
      cached = undefined
      const [offset, kept] = await Promise.all([store.getMeta(CLOCK_OFFSET), store.getMeta(SEED)])
      followed = isClockOffset(offset ?? 0) ? ((offset ?? 0) as number) : 0
      seed = typeof kept === 'string' ? kept : undefined
      standFor(seed === undefined ? undefined : at)
      await renew()
    },
    random,
    randomNow: () => (seed === undefined ? platformRandom : current),
    async listSecrets() {
      const at = await now()
      return (await store.listSecrets()).map((secret) => viewSecret(secret, at))
    },
    async createSecret(options = {}) {
      return createSecret(store, await now(), options.key, await random())
    },
    async rollSecret(id, options = {}) {
      return rollSecret(store, await now(), id, options.at, await random())
    },
    async cancelRoll(id) {
      return cancelRoll(store, await now(), id)
    },
    async advanceClock(seconds) {
      if (!Number.isFinite(seconds) || seconds < 0) {
        throw new InvalidError("`advance' must be a number of seconds, 0 or more")
      }
      // Added to the offset as stored, in one update: two advances at once both count.
      let offset = 0
      await update(store, async (reader) => {
        const stored = (await reader.getMeta(CLOCK_OFFSET)) ?? 0
        const from = isClockOffset(stored) ? stored : followed
        offset = from + seconds * 1000
        if (!isClockOffset(offset)) {
          const left = Math.max(0, Math.floor(MAX_CLOCK_ADVANCE - from / 1000))
          throw new InvalidError(
            `\`advance' would move the clock more than ${MAX_CLOCK_ADVANCE} seconds (about 100 years) ahead of real time; at most ${left} more`,
          )
        }
        return [{ op: 'putMeta', key: CLOCK_OFFSET, value: offset }]
      })
      follow(offset)
      return nowSeconds(own)
    },
    async reset() {
      await store.commit([{ op: 'clear' }])
      cached = undefined
      own.advance(-own.offset)
      followed = 0
      seed = undefined
      standFor()
      current = platformRandom
    },
    async exportSnapshot() {
      await signer()
      const snapshot = await store.snapshot()
      return {
        format: SNAPSHOT_FORMAT,
        version: SNAPSHOT_VERSION,
        serviceName,
        exportedAt: await now(),
        ...snapshot,
      }
    },
    async importSnapshot(value) {
      const snapshot = await readSnapshot(value, limits)
      await store.commit([{ op: 'restore', snapshot }, secretsChanged(), usageRecord(snapshot)])
      cached = undefined
      await syncClock()
      const stored = snapshot.meta[SEED]
      seed = typeof stored === 'string' ? stored : undefined
      // A seeded account imported stands where its export was taken.
      const exportedAt = (value as { exportedAt?: unknown }).exportedAt
      standFor(typeof exportedAt === 'number' && seed !== undefined ? exportedAt * 1000 : undefined)
      await renew()
    },
    async restoreState(snapshot, clockOffset, at) {
      await store.commit([{ op: 'restore', snapshot }, secretsChanged()])
      cached = undefined
      own.advance(clockOffset - own.offset)
      const stored = snapshot.meta[CLOCK_OFFSET] ?? 0
      followed = isClockOffset(stored) ? stored : 0
      const kept = snapshot.meta[SEED]
      seed = typeof kept === 'string' ? kept : undefined
      standFor(seed === undefined ? undefined : at)
      await renew()
    },
    listProcedures: () => store.listProcs(),
    listBuckets: () => store.listBuckets(),
    async inspect(token) {
      const identity = await identify(token.trim(), store, await signer(), await now())
      if (identity.state === 'usable') return { state: 'usable', details: identity.details }
      return {
        state: identity.state,
        reason: identity.reason,
        ...(identity.details ? { details: identity.details } : {}),
      }
    },
  }
}
