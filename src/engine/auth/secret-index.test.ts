import { describe, expect, it } from 'vitest'
import type { HmacFactory } from './hmac'
import { webCryptoHmac } from './hmac'
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

  it('remembers the secret a key found, so calling with it again computes no digest', async () => {
    const { hmac, digests } = countingHmac()
    const h = await createHarness({ hmac })
    const other = await h.engine.account.createSecret()
    expect((await h.call('core.ping')).text).toBe('true')
    const after = digests.count
    for (let i = 0; i < 5; i++) expect((await h.call('core.ping')).text).toBe('true')
    expect(digests.count).toBe(after)
    // Another key is looked up once, then remembered too; a key never found is looked up each time.
    expect((await h.call('core.ping', { token: other.key })).text).toBe('true')
    expect((await h.call('core.ping', { token: other.key })).text).toBe('true')
    expect(digests.count).toBe(after + 1)
    for (let i = 0; i < 2; i++)
      expect((await h.call('core.ping', { token: 'nope-nope' })).status).toBe(401)
    expect(digests.count).toBe(after + 3)
  })

  it('still sees a remembered key’s secret roll, at once or when its time comes', async () => {
    const h = await createHarness()
    expect((await h.call('core.ping')).text).toBe('true')
    const later = await h.engine.account.rollSecret(h.secret.id, {
      at: (await h.engine.account.now()) + 60,
    })
    expect((await h.call('core.ping')).text).toBe('true')
    h.clock.advance(61_000)
    expect((await h.call('core.ping')).text).toBe('authorization is expired')
    expect((await h.call('core.ping', { token: later.key })).text).toBe('true')
    await h.engine.account.rollSecret(later.id)
    expect((await h.call('core.ping', { token: later.key })).text).toBe('authorization is expired')
  })

  it('forgets what it remembered when the secrets change under it: a key reset and made again', async () => {
    const h = await createHarness({ secrets: ['starting-key-0123456789'] })
    await h.engine.start()
    const token = 'starting-key-0123456789'
    expect((await h.call('core.ping', { token })).text).toBe('true')
    // The key comes back after a reset as a new secret (a new id), as it does after an import.
    await h.engine.reset()
    expect((await h.call('core.ping', { token })).text).toBe('true')
    const exported = (await h.control('export')).body
    await h.engine.reset()
    expect((await h.control('import', exported)).status).toBe(200)
    expect((await h.call('core.ping', { token })).text).toBe('true')
  })
})

/** WebCrypto's HMAC, counting the digests computed with each key made after the first. */
function countingHmac() {
  const digests = { count: 0 }
  let made = 0
  const hmac: HmacFactory = async (key) => {
    const mac = await webCryptoHmac(key)
    // The first key made is the secret index's (the account makes it before any signer).
    const counted = made++ === 0
    return (data) => {
      if (counted) digests.count++
      return mac(data)
    }
  }
  return { hmac, digests }
}
