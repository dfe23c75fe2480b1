/**
 * What the benchmarks give an engine in Node, as the Node adapters do, and the signature the
 * raw-store baselines compute with the same primitive the engine uses.
 */
import { createHmac } from 'node:crypto'
import type { EngineOptions } from '../src/engine'
import { nodeHmac } from '../src/server/node-hmac'

export const engineOptions: Partial<EngineOptions> = { hmac: nodeHmac }

/** HMAC-SHA-256 of `text` under `key`, as the engine signs a token. */
export async function rawSign(key: string, text: string): Promise<string> {
  return createHmac('sha256', key).update(text).digest('base64url')
}
