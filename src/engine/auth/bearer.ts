/**
 * What an `authorization` header holds, read in one place for every reader of it (the engine's
 * credentials and faults, the server's control token, the journal's readers): `bearer <token>`,
 * the scheme in any case, with any whitespace around.
 */
export type Bearer =
  { state: 'missing' } | { state: 'malformed' } | { state: 'token'; token: string }

const TOKEN = /^\s*bearer\s+(\S+)\s*$/i
const NOTHING = /^\s*(bearer\s*)?$/i

export function readBearer(header: string | null | undefined): Bearer {
  if (header === null || header === undefined || NOTHING.test(header)) return { state: 'missing' }
  const token = TOKEN.exec(header)?.[1]
  return token === undefined ? { state: 'malformed' } : { state: 'token', token }
}

/** The token of `bearer <token>`, and nothing else in the header; `undefined` otherwise. */
export const bearerToken = (header: string | null | undefined): string | undefined =>
  header ? TOKEN.exec(header)?.[1] : undefined
