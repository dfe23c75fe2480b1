import { decode, encode, type DecoderOptions } from '@msgpack/msgpack'
import { InvalidError } from '../errors'
import type { Json } from '../store'
import { assertJsonDepth } from '../lang/depth'

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })

function decodeString(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes)
  } catch {
    throw new InvalidError('the MessagePack body holds a string that is not valid UTF-8')
  }
}

// Map keys through the same strict decoder (the library's own replaces bad bytes silently).
const strictKeys: NonNullable<DecoderOptions['keyDecoder']> = {
  canBeCached: () => true,
  decode: (bytes: Uint8Array, offset: number, length: number) =>
    decodeString(bytes.subarray(offset, offset + length)),
}

/**
 * `application/vnd.<service>+msgpack`: the tuple language in MessagePack. Only what JSON can
 * carry is accepted, so both formats mean the same thing; strings must be valid UTF-8.
 */
export function decodeMsgpack(body: Uint8Array): unknown {
  let value: unknown
  let raw: unknown
  try {
    value = decode(body)
    // Strings again as bytes, so that invalid UTF-8 is refused rather than repaired.
    raw = decode(body, { rawStrings: true, keyDecoder: strictKeys })
  } catch (error) {
    if (error instanceof InvalidError) throw error
    throw new InvalidError(`the body is not valid MessagePack (${(error as Error).message})`)
  }
  assertJsonDepth(value)
  assertJsonLike(value)
  return withStrings(raw)
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
    // One push per child: spreading a large array into `push` overflows the stack.
    if (Array.isArray(value)) for (const item of value) stack.push(item)
    else if (value instanceof Uint8Array) throw unsupported('binary data')
    else if (value instanceof Date) throw unsupported('a timestamp')
    else if (typeof value === 'object') for (const item of Object.values(value)) stack.push(item)
    else throw unsupported(`a ${typeof value}`)
  }
}

/**
 * Replaces the byte strings of a tree decoded with `rawStrings` by their text, in place.
 * Called after `assertJsonLike`, so every byte array in it was a string.
 */
function withStrings(root: unknown): unknown {
  if (root instanceof Uint8Array) return decodeString(root)
  const stack = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (value === null || typeof value !== 'object') continue
    const entries = value as Record<string, unknown>
    for (const key of Object.keys(entries)) {
      const child = entries[key]
      if (child instanceof Uint8Array) entries[key] = decodeString(child)
      else if (child !== null && typeof child === 'object') stack.push(child)
    }
  }
  return root
}

const unsupported = (what: string) =>
  new InvalidError(`the MessagePack body holds ${what}, which has no JSON equivalent`)
