import { recordCommit, type CommitRecord } from '../account/changes'
import { update } from '../account/update'
import type { Mutation, Store, StoreReader } from '../store'

/**
 * `store`, each commit (and update) recorded as a change between exchanges while the history
 * keeps steps: read in the commit's own atomic step, kept once it is committed.
 */
export function recordingStore(
  store: Store,
  keeping: () => boolean,
  committed: (commit: CommitRecord) => void,
): Store {
  const recorded = async (plan: (reader: StoreReader) => Promise<readonly Mutation[]>) => {
    let commit: CommitRecord | undefined
    await update(store, async (reader) => {
      const mutations = await plan(reader)
      commit = mutations.length > 0 ? await recordCommit(reader, mutations) : undefined
      return mutations
    })
    if (commit) committed(commit)
  }
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
    close: () => store.close(),
    commit: (mutations) => (keeping() ? recorded(async () => mutations) : store.commit(mutations)),
    update: (plan) => (keeping() ? recorded(plan) : update(store, plan)),
  }
}
