import { decode, encode, ExtData, ExtensionCodec, type DecoderOptions } from '@msgpack/msgpack'
import { InvalidError } from '../errors'
import { Decimal, isExtension, Timestamp, type Value } from '../lang/value'
import { assertJsonDepth } from '../lang/depth'
import { inexactNumber, MAX_EXACT } from './exact'

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })
const utf8 = new TextEncoder()

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

/** The extension types the service reads and writes; any other is refused. */
const DECIMAL = 0
const TIMESTAMP = -1

/**
 * Decimals (type 0, their text, as the Ruby client packs a `BigDecimal`) and timestamps
 * (type -1, the standard extension), read into `Decimal` and `Timestamp` and written back in
 * the same form: a decimal's text exactly as it came, a timestamp in the smallest of its three
 * forms, as every MessagePack library (Ruby's included) writes one.
 */
const extensions = new ExtensionCodec()
extensions.register({
  type: DECIMAL,
  encode: (value) => (value instanceof Decimal ? utf8.encode(value.text) : null),
  decode: (data) => readDecimal(data),
})
extensions.register({
  type: TIMESTAMP,
  encode: (value) => (value instanceof Timestamp ? timestampData(value) : null),
  decode: (data) => readTimestamp(data),
})

function readDecimal(data: Uint8Array): Decimal {
  const text = decodeString(data)
  const decimal = Decimal.parse(text)
  if (decimal) return decimal
  throw new InvalidError(
    `the MessagePack body holds a decimal (extension type 0) written ${JSON.stringify(text.slice(0, 40))}, which is not a number; write it as BigDecimal#to_s does, such as "0.1e1"`,
  )
}

function readTimestamp(data: Uint8Array): Timestamp {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  let seconds: bigint
  let nanoseconds: number
  if (data.byteLength === 4) {
    seconds = BigInt(view.getUint32(0))
    nanoseconds = 0
  } else if (data.byteLength === 8) {
    // 30 bits of nanoseconds, then 34 bits of seconds.
    const high = view.getUint32(0)
    nanoseconds = high >>> 2
    seconds = (BigInt(high & 0b11) << 32n) | BigInt(view.getUint32(4))
  } else if (data.byteLength === 12) {
    nanoseconds = view.getUint32(0)
    seconds = view.getBigInt64(4)
  } else {
    throw new InvalidError(
      `the MessagePack body holds a timestamp (extension type -1) of ${data.byteLength} bytes; a timestamp takes 4, 8 or 12`,
    )
  }
  const timestamp = Timestamp.of(seconds, nanoseconds)
  if (timestamp) return timestamp
  throw new InvalidError(
    `the MessagePack body holds a timestamp (extension type -1) with ${nanoseconds} nanoseconds; at most 999999999`,
  )
}

/** The smallest form that holds it: 32 bits of seconds, 30+34 bits, or 32+64 bits. */
function timestampData({ seconds, nanoseconds }: Timestamp): Uint8Array {
  if (seconds >= 0n && seconds < 1n << 34n) {
    if (nanoseconds === 0 && seconds < 1n << 32n) {
      const data = new DataView(new ArrayBuffer(4))
      data.setUint32(0, Number(seconds))
      return new Uint8Array(data.buffer)
    }
    const data = new DataView(new ArrayBuffer(8))
    data.setUint32(0, nanoseconds * 4 + Number(seconds >> 32n))
    data.setUint32(4, Number(seconds & 0xffff_ffffn))
    return new Uint8Array(data.buffer)
  }
  const data = new DataView(new ArrayBuffer(12))
  data.setUint32(0, nanoseconds)
  data.setBigInt64(4, seconds)
  return new Uint8Array(data.buffer)
}

/**
 * `application/vnd.<service>+msgpack`: the tuple language in MessagePack. What JSON carries,
 * plus decimals and timestamps; strings must be valid UTF-8.
 */
export function decodeMsgpack(body: Uint8Array): unknown {
  let value: unknown
  let raw: unknown
  try {
    // 64-bit integers as bigints, so that one past 2^53 is refused, never rounded.
    value = decode(body, { extensionCodec: extensions, useBigInt64: true })
    // Strings again as bytes, so that invalid UTF-8 is refused rather than repaired.
    raw = decode(body, {
      extensionCodec: extensions,
      useBigInt64: true,
      rawStrings: true,
      keyDecoder: strictKeys,
    })
  } catch (error) {
    if (error instanceof InvalidError) throw error
    throw new InvalidError(`the body is not valid MessagePack (${(error as Error).message})`)
  }
  assertJsonDepth(value)
  assertJsonLike(value)
  return withStrings(raw)
}

/**
 * How deep an answer may nest: the library stops at 100 levels by default, short of what a body
 * may hold (256) plus what calls add around it (one level each, at most `maxDepth` of them).
 */
const MAX_ANSWER_DEPTH = 4096

export function encodeMsgpack(value: Value): Uint8Array<ArrayBuffer> {
  return encode(value, {
    extensionCodec: extensions,
    maxDepth: MAX_ANSWER_DEPTH,
  }) as Uint8Array<ArrayBuffer>
}

function assertJsonLike(root: unknown): void {
  const stack = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (value === null || typeof value === 'string' || typeof value === 'boolean') continue
    if (isExtension(value)) continue
    if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw unsupported('a non-finite number')
      if (Math.abs(value) > MAX_EXACT) throw inexact(String(value))
      continue
    }
    if (typeof value === 'bigint') {
      if (value > BigInt(MAX_EXACT) || value < -BigInt(MAX_EXACT)) throw inexact(String(value))
      continue
    }
    // One push per child: spreading a large array into `push` overflows the stack.
    if (Array.isArray(value)) for (const item of value) stack.push(item)
    else if (value instanceof Uint8Array) throw unsupported('binary data')
    else if (value instanceof ExtData) throw unknownExtension(value.type)
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
  if (typeof root === 'bigint') return Number(root)
  const stack = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (value === null || typeof value !== 'object' || isExtension(value)) continue
    const entries = value as Record<string, unknown>
    for (const key of Object.keys(entries)) {
      const child = entries[key]
      if (child instanceof Uint8Array) entries[key] = decodeString(child)
      // Checked by `assertJsonLike` to lie within 2^53 − 1, so a number holds it exactly.
      else if (typeof child === 'bigint') entries[key] = Number(child)
      else if (child !== null && typeof child === 'object') stack.push(child)
    }
  }
  return root
}

const unknownExtension = (type: number) =>
  new InvalidError(
    `the MessagePack body holds extension type ${type}, which the service does not read; it reads decimals (type 0) and timestamps (type -1)`,
  )

const inexact = (written: string) =>
  inexactNumber(written, '', 'as a string, or as a decimal (extension type 0)')

const unsupported = (what: string) =>
  new InvalidError(`the MessagePack body holds ${what}, which has no JSON equivalent`)
