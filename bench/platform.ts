/**
 * What the benchmarks give an engine in Node, as the Node adapters do, and the signature the
 * raw-store baselines compute with the same primitive the engine uses.
 */
import type { EngineOptions } from '../src/engine'

export const engineOptions: Partial<EngineOptions> = {}

const encoder = new TextEncoder()
const keys = new Map<string, Promise<CryptoKey>>()

/** HMAC-SHA-256 of `text` under `key`, as the engine signs a token. */
export async function rawSign(key: string, text: string): Promise<string> {
  let imported = keys.get(key)
  if (!imported) {
    imported = crypto.subtle.importKey(
      'raw',
      encoder.encode(key),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    )
    keys.set(key, imported)
  }
  const mac = await crypto.subtle.sign('HMAC', await imported, encoder.encode(text))
  return Buffer.from(mac).toString('base64url')
}
