import { fromBase64Url, randomBytes, toBase64Url } from '../auth/bytes'
import { identify, type TokenDetails } from '../auth/credentials'
import type { HmacFactory } from '../auth/hmac'
import { secretsChanged, useHmac } from '../auth/secret-index'
import { createSigner, type Signer } from '../auth/signer'
import { MAX_CLOCK_ADVANCE, nowSeconds, type Clock } from '../clock'
import { InvalidError } from '../errors'
import type { BucketCount, Json, ProcRecord, Store, StoreSnapshot } from '../store'
import { update } from './update'
import { usageRecord } from './usage'
import { cancelRoll, createSecret, rollSecret, viewSecret, type SecretView } from './secrets'
import {
  CLOCK_OFFSET,
  isClockOffset,
  readSnapshot,
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
   * checked), with the clock where it was: `clockOffset` is the clock's own offset then.
   */
  restoreState(snapshot: StoreSnapshot, clockOffset: number): Promise<void>
  inspect(token: string): Promise<TokenReport>
  /** Every stored procedure, by name. */
  listProcedures(): Promise<ProcRecord[]>
  /** Every key-value bucket with its count of keys, by name. */
  listBuckets(): Promise<BucketCount[]>
  /** The account's signer, made on first use. */
  signer(): Promise<Signer>
  /**
   * Catches the clock up with the stored offset (another tab or process may have moved it),
   * read from the store unless given as read already.
   */
  syncClock(stored?: Json): Promise<void>
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
  let cached: { key: string; signer: Promise<Signer> } | undefined

  async function signer(): Promise<Signer> {
    let key = await store.getMeta(SIGNING_KEY)
    if (typeof key !== 'string') {
      await store.commit([
        { op: 'initMeta', key: SIGNING_KEY, value: toBase64Url(randomBytes(32)) },
      ])
      key = await store.getMeta(SIGNING_KEY)
    }
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
    clock.advance(Math.max(stored - followed, -clock.offset))
    followed = stored
  }

  async function syncClock(given?: Json): Promise<void> {
    const stored = (given !== undefined ? given : await store.getMeta(CLOCK_OFFSET)) ?? 0
    // An offset out of bounds (written before bounds were kept) is ignored, never followed.
    if (isClockOffset(stored)) follow(stored)
  }

  const now = async () => {
    await syncClock()
    return nowSeconds(clock)
  }

  return {
    signer,
    syncClock,
    now,
    async listSecrets() {
      const at = await now()
      return (await store.listSecrets()).map((secret) => viewSecret(secret, at))
    },
    async createSecret(options = {}) {
      return createSecret(store, await now(), options.key)
    },
    async rollSecret(id, options = {}) {
      return rollSecret(store, await now(), id, options.at)
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
      return nowSeconds(clock)
    },
    async reset() {
      await store.commit([{ op: 'clear' }])
      cached = undefined
      clock.advance(-clock.offset)
      followed = 0
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
    },
    async restoreState(snapshot, clockOffset) {
      await store.commit([{ op: 'restore', snapshot }, secretsChanged()])
      cached = undefined
      clock.advance(clockOffset - clock.offset)
      const stored = snapshot.meta[CLOCK_OFFSET] ?? 0
      followed = isClockOffset(stored) ? stored : 0
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
