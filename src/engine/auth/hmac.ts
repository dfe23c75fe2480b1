/**
 * HMAC-SHA-256, as the platform best computes it. The engine is given a factory
 * (`EngineOptions.hmac`): the Node adapters give `node:crypto`'s, synchronous and a few µs a
 * call; without one it uses WebCrypto's, the only one a browser has (in Node it runs on the
 * thread pool, 130–170 µs a call, most of it waiting).
 */
export type Hmac = (data: Uint8Array<ArrayBuffer>) => Uint8Array | Promise<Uint8Array>

/** Makes the HMAC of one key. */
export type HmacFactory = (key: Uint8Array<ArrayBuffer>) => Hmac | Promise<Hmac>

export const webCryptoHmac: HmacFactory = async (key) => {
  const imported = await crypto.subtle.importKey(
    'raw',
    key,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  )
  return async (data) => new Uint8Array(await crypto.subtle.sign('HMAC', imported, data))
}
