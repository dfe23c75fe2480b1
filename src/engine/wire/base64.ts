// Base64 with what browsers and Node both have: the engine, the runner and the recorder also
// run in the playground's page, where there is no `Buffer`.

import { toBase64Url } from '../bytes'

export { fromBase64Url, toBase64Url } from '../bytes'

/**
 * Padded base64 of bytes, or of a text's UTF-8 bytes. Written over the base64url encoder, not
 * `btoa`: Node's `btoa` of a binary string is several times slower on a large body, and the
 * journal writes one for every MessagePack exchange.
 */
export function toBase64(data: Uint8Array | string): string {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data
  const text = toBase64Url(bytes).replaceAll('-', '+').replaceAll('_', '/')
  return text + '='.repeat((4 - (text.length % 4)) % 4)
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
