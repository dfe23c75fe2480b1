import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../storage/memory-store'
import { createEngine } from '../engine'
import type { Store } from '../store'
import { createHarness } from '../../testing/engine-harness'

/** A store that counts how often every secret is read at once. */
function countingStore() {
  const store = createMemoryStore()
  const counts = { listSecrets: 0 }
  const counted: Store = {
    ...store,
    listSecrets: () => (counts.listSecrets++, store.listSecrets()),
  }
  return { store: counted, counts }
}

describe('secret keys, looked up by a keyed digest', () => {
  it('finds a key without reading every secret on each call', async () => {
    const { store, counts } = countingStore()
    const h = await createHarness({ store })
    const keys = []
    for (let i = 0; i < 50; i++) keys.push((await h.engine.account.createSecret()).key)
    expect((await h.call('core.ping', { token: keys[7] })).text).toBe('true')
    const before = counts.listSecrets
    for (const token of [...keys, h.secret.key, 'not-a-key-of-this-account']) {
      const expected = token.startsWith('not') ? 401 : 200
      expect((await h.call('core.ping', { token })).status).toBe(expected)
    }
    expect(counts.listSecrets).toBe(before)
  })

  it('refuses a key that differs in one character, or is a prefix of one', async () => {
    const h = await createHarness()
    const key = h.secret.key
    const last = key.at(-1) === 'A' ? 'B' : 'A'
    for (const token of [`${key.slice(0, -1)}${last}`, key.slice(0, -1), `${key}A`]) {
      expect((await h.call('core.ping', { token })).text).toBe('authorization is invalid')
    }
  })

  it('finds secrets another engine over the same store created, and forgets reset ones', async () => {
    const h = await createHarness()
    const store = h.engine.settings.store
    expect((await h.call('core.ping')).text).toBe('true')
    const tab = createEngine({ store, clock: h.clock, baseUrl: h.baseUrl })
    const created = await tab.account.createSecret({ key: 'made-in-another-tab' })
    expect((await h.call('core.ping', { token: created.key })).text).toBe('true')
    const rolled = await tab.account.rollSecret(created.id)
    expect((await h.call('core.ping', { token: created.key })).status).toBe(401)
    expect((await h.call('core.ping', { token: rolled.key })).text).toBe('true')
    await tab.account.reset()
    expect((await h.call('core.ping', { token: rolled.key })).status).toBe(401)
    const again = await tab.account.createSecret({ key: 'made-in-another-tab' })
    expect((await h.call('core.ping', { token: again.key })).text).toBe('true')
  })

  it('finds the secrets of an imported account, and no longer the replaced ones', async () => {
    const h = await createHarness()
    const other = await createHarness()
    const exported = (await other.control('export')).body
    expect((await h.control('import', exported)).status).toBe(200)
    expect((await h.call('core.ping', { token: other.secret.key })).text).toBe('true')
    expect((await h.call('core.ping')).status).toBe(401)
  })

  it('still refuses a duplicate chosen key', async () => {
    const h = await createHarness()
    const duplicate = await h.control('secrets', { key: h.secret.key })
    expect(duplicate.status).toBe(409)
  })
})
