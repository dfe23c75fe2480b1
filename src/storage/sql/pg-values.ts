// How the PostgreSQL store writes what it keeps: strings as their UTF-16BE bytes (so that they
// sort as the engine orders keys), values as JSON text.

/** A string as stored and ordered: its UTF-16BE bytes (see `pg-schema.ts`). */
export const utf16 = (text: string): Buffer => Buffer.from(text, 'utf16le').swap16()
export const fromUtf16 = (bytes: Buffer): string => Buffer.from(bytes).swap16().toString('utf16le')

/** A stored JSON text, read back. */
export const parse = <T>(text: string): T => JSON.parse(text) as T

/** `value` as stored JSON text; a `TypeError` for what JSON cannot write. */
export function jsonText(value: unknown): string {
  const text = JSON.stringify(value)
  if (text === undefined) throw new TypeError(`${String(value)} is not a JSON value`)
  return text
}
