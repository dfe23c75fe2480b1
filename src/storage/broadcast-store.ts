import type { Store } from '../engine/store'

/** What `broadcastCommits` posts on the account's channel after each commit. */
export interface CommitMessage {
  type: 'commit'
  /** Who committed, as given to `broadcastCommits`: a tab can tell its own commits apart. */
  sender: string
  /** The operations of the commit, in order (`putSecret`, `clear`, ...). */
  ops: string[]
}

/** Whether a message received on an account's channel is a `CommitMessage`. */
export function isCommitMessage(data: unknown): data is CommitMessage {
  const message = data as Partial<CommitMessage> | null
  return message?.type === 'commit' && typeof message.sender === 'string'
}

/**
 * `store`, telling other tabs when it changes: after each commit that succeeds, a
 * `CommitMessage` from `sender` goes out on the BroadcastChannel `channelName` (name it after
 * the database, so that only tabs of the same account hear it). A commit that fails posts
 * nothing. Closing the store closes the channel.
 */
export function broadcastCommits(store: Store, channelName: string, sender: string): Store {
  const channel = new BroadcastChannel(channelName)
  return {
    getMeta: (key) => store.getMeta(key),
    getSecret: (id) => store.getSecret(id),
    listSecrets: () => store.listSecrets(),
    getKey: (bucket, key) => store.getKey(bucket, key),
    scanKeys: (bucket, options) => store.scanKeys(bucket, options),
    listBuckets: () => store.listBuckets(),
    getProc: (name) => store.getProc(name),
    listProcs: () => store.listProcs(),
    snapshot: () => store.snapshot(),
    async commit(mutations) {
      await store.commit(mutations)
      const message: CommitMessage = { type: 'commit', sender, ops: mutations.map((m) => m.op) }
      channel.postMessage(message)
    },
    async close() {
      channel.close()
      await store.close()
    },
  }
}
