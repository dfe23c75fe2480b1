// Base64 with what browsers and Node both have (`btoa`, `atob`): the engine, the runner and the
// recorder also run in the playground's page, where there is no `Buffer`.

export { fromBase64Url, toBase64Url } from '../auth/bytes'

const CHUNK = 0x8000

/** Padded base64 of bytes, or of a text's UTF-8 bytes. */
export function toBase64(data: Uint8Array | string): string {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data
  let binary = ''
  // In pieces: `String.fromCharCode(...bytes)` of a long body overflows the call stack.
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK))
  }
  return btoa(binary)
}

/** The bytes a base64 text stands for. Throws on a text that is not base64. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}

/** The UTF-8 text a base64 text stands for (malformed sequences as U+FFFD). */
export const base64ToText = (text: string): string => new TextDecoder().decode(fromBase64(text))
