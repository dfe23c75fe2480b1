import { decode, encode } from '@msgpack/msgpack'
import { InvalidError } from '../errors'
import type { Json } from '../store'
import { assertJsonDepth } from './json-depth'

/**
 * `application/vnd.<service>+msgpack`: the tuple language in MessagePack. Only what JSON can
 * carry is accepted, so both formats mean the same thing.
 */
export function decodeMsgpack(body: Uint8Array): unknown {
  let value: unknown
  try {
    value = decode(body)
  } catch (error) {
    throw new InvalidError(`the body is not valid MessagePack (${(error as Error).message})`)
  }
  assertJsonDepth(value)
  assertJsonLike(value)
  return value
}

export function encodeMsgpack(value: Json): Uint8Array<ArrayBuffer> {
  return encode(value) as Uint8Array<ArrayBuffer>
}

function assertJsonLike(root: unknown): void {
  const stack = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (value === null || typeof value === 'string' || typeof value === 'boolean') continue
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw unsupported('a non-finite number')
      continue
    }
    if (Array.isArray(value)) stack.push(...value)
    else if (value instanceof Uint8Array) throw unsupported('binary data')
    else if (value instanceof Date) throw unsupported('a timestamp')
    else if (typeof value === 'object') stack.push(...Object.values(value))
    else throw unsupported(`a ${typeof value}`)
  }
}

const unsupported = (what: string) =>
  new InvalidError(`the MessagePack body holds ${what}, which has no JSON equivalent`)
