import { decode } from '@msgpack/msgpack'
import { bytes } from './build'
import { show } from './compare'

/** Characters of a body a person is shown: past them it is cut, with `…` and its whole size. */
const SHOWN_CHARACTERS = 4000

/**
 * The answer's body (base64, or its bytes) as a person reads it: text, or MessagePack shown as
 * JSON; its first 4,000 characters, then `…` and its size. Only what can be shown is decoded.
 * `shown` rewrites the text before it is cut (the shadow hides tokens there, so that none is
 * cut into a piece it would not know).
 */
export function readableBody(
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  shown: (text: string) => string = (text) => text,
): string {
  if (body === undefined || body.length === 0) return ''
  const raw = typeof body === 'string' ? bytes(body) : body
  const cut = (text: string, partial: boolean) =>
    partial || text.length > SHOWN_CHARACTERS
      ? `${text.slice(0, SHOWN_CHARACTERS)}… (${raw.length} bytes)`
      : text
  if (/msgpack/i.test(headers['content-type'] ?? '')) {
    try {
      return cut(shown(`(MessagePack) ${show(decode(raw))}`), false)
    } catch {
      return `(${raw.length} bytes of MessagePack that do not decode)`
    }
  }
  // A character is at most four bytes of UTF-8; a character cut in two is left out.
  const shownBytes = raw.subarray(0, SHOWN_CHARACTERS * 4)
  const text = new TextDecoder('utf-8', { fatal: false }).decode(shownBytes, {
    stream: shownBytes.length < raw.length,
  })
  return cut(shown(text), shownBytes.length < raw.length)
}
