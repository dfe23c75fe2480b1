import { mask } from '../shared/masked'

/**
 * Tokens inside text the log shows (an `auth.create` answer is an authorization; a body may
 * quote the token it was sent with): masked like every token on screen until revealed.
 */

/** A signed authorization: base64url payload, a dot, a base64url HMAC-SHA256 (43 characters). */
const AUTHORIZATION = /[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g

/** `text` with every authorization and every one of `known` (the tokens sent) masked. */
export function maskTokens(text: string, known: readonly string[]): string {
  let masked = text
  for (const token of known) {
    if (token.length >= 8) masked = masked.split(token).join(mask(token))
  }
  return masked.replace(AUTHORIZATION, (token) => mask(token))
}

/** Whether `text` holds anything `maskTokens` would mask. */
export const holdsTokens = (text: string, known: readonly string[]): boolean =>
  maskTokens(text, known) !== text
