import 'fake-indexeddb/auto'
import { IDBFactory } from 'fake-indexeddb'
import { afterEach, describe, expect, it } from 'vitest'
import { openIdbStore } from './idb-store'
import { StoreConflictError, type Store } from '../engine/store'
import { broadcastCommits, isCommitMessage, type CommitMessage } from './broadcast-store'
import { createMemoryStore } from './memory-store'
import { describeStoreContract } from '../testing/store-contract/index'

let channels = 0
const run = crypto.randomUUID()
const freshName = () => `broadcast-store-test-${run}-${channels++}`

describeStoreContract('broadcastCommits over a memory store', async () =>
  broadcastCommits(createMemoryStore(), freshName(), 'contract'),
)

describeStoreContract(
  'broadcastCommits over IndexedDB',
  async () =>
    broadcastCommits(
      await openIdbStore('store', { indexedDB: new IDBFactory() }),
      freshName(),
      'contract',
    ),
  { update: true },
)

describe('broadcastCommits', () => {
  const open: { close(): unknown }[] = []
  afterEach(async () => {
    await Promise.all(open.splice(0).map((item) => item.close()))
  })

  /** A store posting on a fresh channel, and what another listener there hears. */
  function setup(sender = 'tab-a') {
    const name = freshName()
    const store = broadcastCommits(createMemoryStore(), name, sender)
    const listener = new BroadcastChannel(name)
    open.push(store, listener)
    const heard: unknown[] = []
    let wake = () => {}
    listener.onmessage = (event: MessageEvent) => {
      heard.push(event.data)
      wake()
    }
    /** Waits until `count` messages have arrived. */
    const until = (count: number) =>
      new Promise<unknown[]>((resolve) => {
        wake = () => heard.length >= count && resolve(heard)
        wake()
      })
    return { name, store, heard, until }
  }

  it('posts one message naming the sender and the operations after a commit', async () => {
    const { store, until } = setup('tab-a')
    await store.commit([
      { op: 'putMeta', key: 'k', value: 1 },
      { op: 'setKey', bucket: 'b', key: 'x', value: 'y' },
    ])
    expect(await until(1)).toEqual([
      {
        type: 'commit',
        sender: 'tab-a',
        ops: ['putMeta', 'setKey'],
        meta: ['k'],
      } satisfies CommitMessage,
    ])
  })

  it('posts nothing for a commit that fails, and nothing is written', async () => {
    const { store, until } = setup()
    const failing = store.commit([
      { op: 'putMeta', key: 'k', value: 1 },
      { op: 'expectSecret', id: 'sec_missing', rolledTo: null, expiresAt: null },
    ])
    await expect(failing).rejects.toBeInstanceOf(StoreConflictError)
    expect(await store.getMeta('k')).toBeUndefined()
    // One sender's messages arrive in order: had the failed commit posted, it would come first.
    await store.commit([{ op: 'clear' }])
    expect(await until(1)).toEqual([{ type: 'commit', sender: 'tab-a', ops: ['clear'], meta: [] }])
  })

  it('reads and writes the store it wraps', async () => {
    const inner: Store = createMemoryStore()
    const store = broadcastCommits(inner, freshName(), 'tab-a')
    open.push(store)
    const secret = { id: 's1', key: 'k1', createdAt: 1, expiresAt: null, rolledTo: null }
    await store.commit([{ op: 'putSecret', secret }])
    expect(await inner.getSecret('s1')).toEqual(secret)
    expect(await store.listSecrets()).toEqual([secret])
  })

  it('is heard only on its own channel', async () => {
    const a = setup('tab-a')
    const b = setup('tab-b')
    await a.store.commit([{ op: 'putMeta', key: 'k', value: 1 }])
    await b.store.commit([{ op: 'putMeta', key: 'k', value: 2 }])
    expect(await a.until(1)).toEqual([
      { type: 'commit', sender: 'tab-a', ops: ['putMeta'], meta: ['k'] },
    ])
    expect(await b.until(1)).toEqual([
      { type: 'commit', sender: 'tab-b', ops: ['putMeta'], meta: ['k'] },
    ])
  })

  it('closes the store it wraps', async () => {
    const inner = createMemoryStore()
    await broadcastCommits(inner, freshName(), 'tab-a').close()
    await expect(inner.getMeta('k')).rejects.toThrow(/closed/)
  })
})

describe('isCommitMessage', () => {
  it('accepts what broadcastCommits posts and nothing else', () => {
    expect(isCommitMessage({ type: 'commit', sender: 'a', ops: [] })).toBe(true)
    expect(isCommitMessage({ type: 'commit' })).toBe(false)
    expect(isCommitMessage({ type: 'other', sender: 'a' })).toBe(false)
    expect(isCommitMessage(null)).toBe(false)
    expect(isCommitMessage('commit')).toBe(false)
  })
})
