import { describe, expect, it } from 'vitest'
import { webCryptoHmac, type HmacFactory } from './hmac'
import { createSigner } from './signer'

/** WebCrypto's HMAC, counting the MACs computed. */
function counting() {
  const macs = { count: 0 }
  const hmac: HmacFactory = async (key) => {
    const mac = await webCryptoHmac(key)
    return (data) => (macs.count++, mac(data))
  }
  return { hmac, macs }
}

describe('createSigner', () => {
  it('verifies a token it signed, or verified before, without computing its MAC again', async () => {
    const { hmac, macs } = counting()
    const key = crypto.getRandomValues(new Uint8Array(32))
    const signer = await createSigner(key, hmac)
    const token = await signer.sign('cursor', { s: 'sec_1', l: 'k250' })
    expect(macs.count).toBe(1)
    expect(await signer.verify('cursor', token)).toEqual({ s: 'sec_1', l: 'k250' })
    expect(macs.count).toBe(1)
    // Another signer over the same key verifies it once, then remembers it.
    const other = await createSigner(key, hmac)
    expect(await other.verify('cursor', token)).toEqual({ s: 'sec_1', l: 'k250' })
    expect(await other.verify('cursor', token)).toEqual({ s: 'sec_1', l: 'k250' })
    expect(macs.count).toBe(2)
  })

  it('keeps a token for its kind only, and nothing it could not verify', async () => {
    const signer = await createSigner(crypto.getRandomValues(new Uint8Array(32)))
    const cursor = await signer.sign('cursor', { l: 'a' })
    expect(await signer.verify('authorization', cursor)).toBeUndefined()
    const forged = `${cursor.slice(0, -2)}${cursor.endsWith('AA') ? 'BA' : 'AA'}`
    expect(await signer.verify('cursor', forged)).toBeUndefined()
    expect(await signer.verify('cursor', forged)).toBeUndefined()
  })

  it('hands out the payload frozen, so no caller can change what the next one reads', async () => {
    const signer = await createSigner(crypto.getRandomValues(new Uint8Array(32)))
    const token = await signer.sign('authorization', { a: ['core'] })
    const payload = (await signer.verify('authorization', token)) as { a: string[] }
    expect(Object.isFrozen(payload) && Object.isFrozen(payload.a)).toBe(true)
    expect(() => payload.a.push('keyv')).toThrow(TypeError)
    expect(await signer.verify('authorization', token)).toEqual({ a: ['core'] })
  })
})
