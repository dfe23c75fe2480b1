import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../storage/memory-store'
import { createHarness } from '../../testing/engine-harness'
import type { CallContext } from './endpoint'
import { createOverlay } from './overlay'

describe('a request writes all or nothing', () => {
  it('leaves nothing behind when a later call fails', async () => {
    const h = await createHarness()
    const response = await h.tuples('core.exec', [
      [
        '$$',
        'proc',
        [
          '{}',
          ['()', 'keyv.set', ['>>', 'a'], ['$$', 'value', 1]],
          ['()', 'service.create', ['$$', 'name', 'p'], ['$$', 'proc', ['()', 'core.ping']]],
          ['()', 'type.string.reverse'],
        ],
      ],
    ])
    expect(response.status).toBe(400)
    expect((await h.tuples('keyv.get', [['>>', 'a']])).json()).toEqual([['<<', null]])
    expect((await h.call('lib.p')).status).toBe(404)
  })

  it('lets later calls of the same request read its earlier writes', async () => {
    const h = await createHarness()
    await h.tuples('keyv.set', [
      ['>>', 'gone'],
      ['$$', 'value', 0],
    ])
    const response = await h.tuples('core.exec', [
      [
        '$$',
        'proc',
        [
          '{}',
          ['()', 'keyv.set', ['>>', 'k'], ['$$', 'value', { n: 1 }]],
          ['()', 'keyv.delete', ['>>', 'gone']],
          ['()', 'service.create', ['$$', 'name', 'p'], ['$$', 'proc', ['()', 'keyv.scan']]],
          ['()', 'lib.p'],
          ['()', 'enum.map', ['$$', 'proc', ['{}', ['()', 'keyv.get']]]],
        ],
      ],
    ])
    expect(response.json()).toEqual([['<<', [{ n: 1 }]]])
    expect((await h.call('lib.p')).text).toBe('["k"]')
  })
})

describe('overlay scans', () => {
  it('merge pending writes and deletions with the store in key order', async () => {
    const store = createMemoryStore()
    await store.commit(
      ['a', 'b', 'c', 'd', 'e'].map((key) => ({ op: 'setKey', bucket: 'x', key, value: 1 })),
    )
    const overlay = createOverlay(store)
    await overlay.commit([
      { op: 'deleteKey', bucket: 'x', key: 'a' },
      { op: 'deleteKey', bucket: 'x', key: 'b' },
      { op: 'setKey', bucket: 'x', key: 'bb', value: 2 },
      { op: 'setKey', bucket: 'x', key: 'z', value: 2 },
    ])
    expect(await overlay.scanKeys('x', { prefix: '', limit: 3 })).toEqual(['bb', 'c', 'd'])
    expect(await overlay.scanKeys('x', { prefix: '', after: 'd', limit: 3 })).toEqual(['e', 'z'])
    expect(await store.scanKeys('x', { prefix: '', limit: 10 })).toEqual(['a', 'b', 'c', 'd', 'e'])
    await overlay.flush()
    expect(await store.scanKeys('x', { prefix: '', limit: 10 })).toEqual(['bb', 'c', 'd', 'e', 'z'])
  })
})

describe('an endpoint', () => {
  it('reaches storage only through the request’s overlay, never the store itself', async () => {
    const h = await createHarness()
    const ping = h.engine.registry.get('core.ping')!
    const original = ping.run
    let seen: CallContext | undefined
    ping.run = (call) => ((seen = call.ctx), original(call))
    try {
      expect((await h.tuples('core.ping', [])).status).toBe(200)
    } finally {
      ping.run = original
    }
    expect(seen).toBeDefined()
    expect('store' in seen!.settings).toBe(false)
    expect(seen!.store).not.toBe(h.engine.settings.store)
    // @ts-expect-error the settings an endpoint sees have no store
    expect(seen!.settings.store).toBeUndefined()
  })
})

describe('overlay bucket counts', () => {
  it('count pending writes and deletions: new keys, new and emptied buckets', async () => {
    const store = createMemoryStore()
    await store.commit([
      { op: 'setKey', bucket: 'x', key: 'a', value: 1 },
      { op: 'setKey', bucket: 'x', key: 'b', value: 1 },
      { op: 'setKey', bucket: 'y', key: 'a', value: 1 },
    ])
    const overlay = createOverlay(store)
    await overlay.commit([
      { op: 'setKey', bucket: 'x', key: 'a', value: 2 },
      { op: 'setKey', bucket: 'x', key: 'c', value: 2 },
      { op: 'deleteKey', bucket: 'x', key: 'never-there' },
      { op: 'deleteKey', bucket: 'y', key: 'a' },
      { op: 'setKey', bucket: 'w', key: 'a', value: 2 },
    ])
    const expected = [
      { bucket: 'w', keys: 1 },
      { bucket: 'x', keys: 3 },
    ]
    expect(await overlay.listBuckets()).toEqual(expected)
    expect(await store.listBuckets()).toEqual([
      { bucket: 'x', keys: 2 },
      { bucket: 'y', keys: 1 },
    ])
    await overlay.flush()
    expect(await store.listBuckets()).toEqual(expected)
  })
})
