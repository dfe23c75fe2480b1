import type { Json, Mutation, SecretRecord, Store } from '../engine/store'
import { copyJson, copySecret } from './copy'

/** What `broadcastCommits` posts on the account's channel after each commit. */
export interface CommitMessage {
  type: 'commit'
  /** Who committed, as given to `broadcastCommits`: a tab can tell its own commits apart. */
  sender: string
  /** The operations of the commit, in order (`putSecret`, `clear`, ...). */
  ops: string[]
  /** The meta keys it wrote (absent from tabs that do not say: then any may have changed). */
  meta?: string[]
}

/** Whether a message received on an account's channel is a `CommitMessage`. */
export function isCommitMessage(data: unknown): data is CommitMessage {
  const message = data as Partial<CommitMessage> | null
  return message?.type === 'commit' && typeof message.sender === 'string'
}

export interface BroadcastOptions {
  /** Called once this store has forgotten what another tab's commit changed. */
  heard?: (message: CommitMessage) => void
}

/** Meta keys a commit writes. */
const metaKeys = (mutations: readonly Mutation[]) =>
  mutations.flatMap((m) =>
    m.op === 'putMeta' || m.op === 'initMeta' || m.op === 'deleteMeta' ? [m.key] : [],
  )

/**
 * `store`, telling other tabs when it changes, and keeping the account's settings and secrets
 * in memory: after each commit that succeeds, a `CommitMessage` from `sender` goes out on the
 * BroadcastChannel `channelName` (name it after the database, so that only tabs of the same
 * account hear it). A commit that fails posts nothing. Closing the store closes the channel.
 *
 * Meta values and secrets, once read, are answered from memory: each request reads the clock
 * offset, the signing key, the secrets' version and its secret, which would otherwise cost a
 * transaction each. What this store commits updates them; what another tab commits forgets
 * what its message names (every meta key it wrote, every secret if it wrote one, everything
 * after a clear or a restore), so the next read goes to the store. A read that was under way
 * when a commit came in is not kept. Keys, values and procedures are always read from the store.
 */
export function broadcastCommits(
  store: Store,
  channelName: string,
  sender: string,
  options: BroadcastOptions = {},
): Store {
  const channel = new BroadcastChannel(channelName)
  /** Meta values read or written, `undefined` for a key known to hold nothing. */
  const meta = new Map<string, Json | undefined>()
  const secrets = new Map<string, SecretRecord | undefined>()
  let allSecrets: SecretRecord[] | undefined
  /** Moves on every change, so that a read begun before it is not kept. */
  let generation = 0

  function forgetSecrets(): void {
    secrets.clear()
    allSecrets = undefined
  }

  /** Forgets what another tab's commit may have changed. */
  function forget({ ops, meta: keys }: CommitMessage): void {
    generation++
    if (ops.includes('clear') || ops.includes('restore')) {
      meta.clear()
      forgetSecrets()
      return
    }
    if (ops.includes('putSecret') || ops.includes('deleteSecret')) forgetSecrets()
    if (ops.includes('putMeta') || ops.includes('initMeta') || ops.includes('deleteMeta')) {
      if (keys) for (const key of keys) meta.delete(key)
      else meta.clear()
    }
  }

  /** Keeps what this store's own commit wrote. */
  function learn(mutations: readonly Mutation[]): void {
    generation++
    for (const mutation of mutations) {
      switch (mutation.op) {
        case 'putMeta':
          meta.set(mutation.key, copyJson(mutation.value))
          break
        case 'initMeta':
          // Written only if it held nothing: read it again to know.
          meta.delete(mutation.key)
          break
        case 'deleteMeta':
          meta.set(mutation.key, undefined)
          break
        case 'putSecret':
          secrets.set(mutation.secret.id, copySecret(mutation.secret))
          allSecrets = undefined
          break
        case 'deleteSecret':
          secrets.set(mutation.id, undefined)
          allSecrets = undefined
          break
        case 'clear':
        case 'restore':
          meta.clear()
          forgetSecrets()
          break
      }
    }
  }

  channel.onmessage = (event: MessageEvent<unknown>) => {
    if (!isCommitMessage(event.data) || event.data.sender === sender) return
    forget(event.data)
    options.heard?.(event.data)
  }

  /** Reads through `read` unless `cache` has it; keeps what it read unless a change came in. */
  async function cached<K, V>(
    cache: Map<K, V>,
    key: K,
    read: () => Promise<V>,
    copy: (value: V) => V,
  ): Promise<V> {
    if (cache.has(key)) return copy(cache.get(key) as V)
    const seen = generation
    const value = await read()
    if (seen === generation) cache.set(key, value)
    return copy(value)
  }

  function announce(mutations: readonly Mutation[]): void {
    const message: CommitMessage = {
      type: 'commit',
      sender,
      ops: mutations.map((m) => m.op),
      meta: metaKeys(mutations),
    }
    channel.postMessage(message)
  }

  const wrapped: Store = {
    getMeta: (key) => cached(meta, key, () => store.getMeta(key), copyJson),
    getSecret: (id) => cached(secrets, id, () => store.getSecret(id), copySecret),
    async listSecrets() {
      if (!allSecrets) {
        const seen = generation
        const read = await store.listSecrets()
        if (seen !== generation) return read
        allSecrets = read
      }
      return allSecrets.map((secret) => ({ ...secret }))
    },
    getKey: (bucket, key) => store.getKey(bucket, key),
    scanKeys: (bucket, options) => store.scanKeys(bucket, options),
    listBuckets: () => store.listBuckets(),
    getProc: (name) => store.getProc(name),
    listProcs: () => store.listProcs(),
    snapshot: () => store.snapshot(),
    async commit(mutations) {
      await store.commit(mutations)
      learn(mutations)
      announce(mutations)
    },
    async close() {
      channel.close()
      await store.close()
    },
  }
  if (store.update) {
    const update = store.update.bind(store)
    // Its reads go to the store (in its transaction), never to what this store holds.
    wrapped.update = async (plan) => {
      let planned: readonly Mutation[] = []
      await update(async (reader) => (planned = await plan(reader)))
      if (planned.length === 0) return
      learn(planned)
      announce(planned)
    }
  }
  return wrapped
}
