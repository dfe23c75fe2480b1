import { createHmac, createSecretKey } from 'node:crypto'
import type { HmacFactory } from '../engine'

/**
 * `node:crypto`'s HMAC-SHA-256 for the engine (`EngineOptions.hmac`): synchronous, a few µs a
 * call, where WebCrypto's waits on the thread pool.
 */
export const nodeHmac: HmacFactory = (key) => {
  const secret = createSecretKey(key)
  return (data) => createHmac('sha256', secret).update(data).digest()
}
