/** Byte helpers over WebCrypto and the standard encoders: nothing environment-specific. */

const encoder = new TextEncoder()
const decoder = new TextDecoder('utf-8', { fatal: true })

export const utf8 = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text)
export const fromUtf8 = (bytes: Uint8Array): string => decoder.decode(bytes)

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
const LOOKUP = new Map([...ALPHABET].map((char, index) => [char, index]))

/** Unpadded base64url. */
export function toBase64Url(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const chunk = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0)
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6))
    for (let j = 0; j < chars; j++) out += ALPHABET[(chunk >> (18 - 6 * j)) & 63]
  }
  return out
}

/**
 * Decodes unpadded base64url, or returns `undefined` for any text that is not the canonical
 * encoding of some bytes: a token altered in its last character must not decode to the
 * same bytes.
 */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (text.length % 4 === 1) return undefined
  const bytes = new Uint8Array(Math.floor((text.length * 6) / 8))
  let buffer = 0
  let bits = 0
  let index = 0
  for (const char of text) {
    const value = LOOKUP.get(char)
    if (value === undefined) return undefined
    buffer = (buffer << 6) | value
    bits += 6
    if (bits >= 8) {
      bits -= 8
      bytes[index++] = (buffer >> bits) & 0xff
    }
  }
  if ((buffer & ((1 << bits) - 1)) !== 0) return undefined
  return bytes
}

/** Compares two strings' code units without an early exit, as `timingSafeEqual` does bytes. */
export function sameText(a: string, b: string): boolean {
  let diff = a.length ^ b.length
  const length = Math.max(1, b.length)
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ (b.charCodeAt(i % length) || 0)
  return diff === 0
}

/** Compares without an early exit, so the time taken says nothing about where they differ. */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ (b[i % Math.max(1, b.length)] ?? 0)
  return diff === 0
}
