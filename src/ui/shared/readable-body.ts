/**
 * An answer's body as a person reads it: text, JSON pretty-printed, or MessagePack decoded
 * beside its bytes in hex.
 */
import { decode } from '@msgpack/msgpack'

/** A byte as two hex digits. */
export const hexByte = (byte: number) => byte.toString(16).padStart(2, '0')

/** Bytes as spaced hex pairs, sixteen to a line. */
export function toHex(bytes: Uint8Array): string {
  const lines: string[] = []
  for (let i = 0; i < bytes.length; i += 16) {
    lines.push([...bytes.subarray(i, i + 16)].map(hexByte).join(' '))
  }
  return lines.join('\n')
}

/** A body as a person reads it: text, or MessagePack decoded (and its bytes in hex). */
export interface ReadableBody {
  /** The body as text, as it travelled (for MessagePack, empty). */
  raw: string
  /** Pretty-printed when it is JSON or MessagePack; otherwise the text again. */
  pretty: string
  /** For MessagePack: the bytes in hex. */
  hex?: string
  /** The decoded value, when it is JSON or MessagePack. */
  value?: unknown
}

/** Reads a body by its content type; a body that does not parse is shown as it is. */
export function readBody(bytes: Uint8Array, contentType: string): ReadableBody {
  if (/msgpack/i.test(contentType)) {
    try {
      const value = decode(bytes)
      return { raw: '', pretty: JSON.stringify(value, null, 2), hex: toHex(bytes), value }
    } catch (error) {
      return { raw: '', pretty: `not valid MessagePack: ${String(error)}`, hex: toHex(bytes) }
    }
  }
  const raw = new TextDecoder().decode(bytes)
  if (/json/i.test(contentType)) {
    try {
      const value: unknown = JSON.parse(raw)
      return { raw, pretty: JSON.stringify(value, null, 2), value }
    } catch {
      // Shown raw.
    }
  }
  return { raw, pretty: raw }
}
