import type { Harness } from './engine-harness'

/**
 * MessagePack written byte by byte, as the real Ruby client writes it, so tests compare what
 * goes out with what comes back exactly. For tests only.
 */

/** The decimal the real Ruby client's suite sends, as `BigDecimal#to_s` writes it. */
export const RUBY_DECIMAL = '0.100000000000043298349238472398e15'

const utf8 = (text: string) => [...new TextEncoder().encode(text)]

const u32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]

function i64(n: bigint): number[] {
  const view = new DataView(new ArrayBuffer(8))
  view.setBigInt64(0, n)
  return [...new Uint8Array(view.buffer)]
}

/** A string: fixstr up to 31 bytes, str8 above. */
export function str(text: string): number[] {
  const bytes = utf8(text)
  return bytes.length < 32 ? [0xa0 | bytes.length, ...bytes] : [0xd9, bytes.length, ...bytes]
}

/** An array of up to 15 elements (fixarray). */
export const array = (...items: number[][]): number[] => [0x90 | items.length, ...items.flat()]

/** A map of up to 15 members (fixmap). */
export const map = (...members: Array<[string, number[]]>): number[] => [
  0x80 | members.length,
  ...members.flatMap(([key, value]) => [...str(key), ...value]),
]

/**
 * A `BigDecimal` as the Ruby client packs it: extension type 0 holding `to_s`. Texts of 1, 2,
 * 4, 8 or 16 bytes take the fixext forms (`0xd4`–`0xd8`), others ext8 (`0xc7 len 0x00`) or,
 * from 256 bytes, ext16.
 */
export function decimal(text: string): number[] {
  const bytes = utf8(text)
  const fixed = { 1: 0xd4, 2: 0xd5, 4: 0xd6, 8: 0xd7, 16: 0xd8 }[bytes.length]
  if (fixed !== undefined) return [fixed, 0x00, ...bytes]
  if (bytes.length < 256) return [0xc7, bytes.length, 0x00, ...bytes]
  return [0xc8, bytes.length >> 8, bytes.length & 0xff, 0x00, ...bytes]
}

/** Timestamp 32 (`0xd6 0xff`): whole seconds from 0 to 2^32 - 1. */
export const timestamp32 = (seconds: number) => [0xd6, 0xff, ...u32(seconds)]

/** Timestamp 64 (`0xd7 0xff`): 30 bits of nanoseconds, 34 of seconds. */
export const timestamp64 = (seconds: number, nanoseconds: number) => [
  0xd7,
  0xff,
  ...u32(nanoseconds * 4 + Math.floor(seconds / 2 ** 32)),
  ...u32(seconds % 2 ** 32),
]

/** Timestamp 96 (`0xc7 12 0xff`): 32 bits of nanoseconds, 64 of signed seconds. */
export const timestamp96 = (seconds: bigint, nanoseconds: number) => [
  0xc7,
  12,
  0xff,
  ...u32(nanoseconds),
  ...i64(seconds),
]

/** A request body of tuples: `[[">>", input]]` and `["$$", name, value]` arguments. */
export function tuples(input: number[] | undefined, args: Record<string, number[]> = {}) {
  const entries = Object.entries(args).map(([name, value]) => array(str('$$'), str(name), value))
  return new Uint8Array(array(...(input ? [array(str('>>'), input)] : []), ...entries))
}

/** The answer `[["<<", value]]`, as the service must write it. */
export const answer = (value: number[]) => new Uint8Array(array(array(str('<<'), value)))

/** Sends a MessagePack body to `name` with the harness's secret; the answer's bytes and text. */
export async function sendMsgpack(
  h: Harness,
  name: string,
  body: Uint8Array,
  { accept, token = h.secret.key }: { accept?: string; token?: string } = {},
) {
  const type = `application/vnd.${h.serviceName}+msgpack`
  const response = await h.send(
    new Request(`${h.baseUrl}/${name.split('.').join('/')}`, {
      method: 'POST',
      headers: { authorization: `bearer ${token}`, 'content-type': type, accept: accept ?? type },
      body: new Uint8Array(body),
    }),
  )
  const bytes = new Uint8Array(await response.arrayBuffer())
  return { status: response.status, bytes: [...bytes], text: new TextDecoder().decode(bytes) }
}
