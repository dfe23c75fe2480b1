import { fromBase64Url, fromUtf8, timingSafeEqual, toBase64Url, utf8 } from '../bytes'
import { webCryptoHmac, type HmacFactory } from './hmac'

/**
 * Signed, self-describing strings (authorizations and cursors): `<payload>.<signature>`,
 * both base64url, the signature an HMAC-SHA-256 over the kind and the payload text, compared in
 * constant time; nothing in a payload is read before its signature checks out.
 */
const VERIFIED_CACHE_SIZE = 1024

export type TokenKind = 'authorization' | 'cursor'

export interface Signer {
  sign(kind: TokenKind, payload: object): Promise<string>
  /**
   * The payload, or `undefined` for anything not signed by this key as this kind. The payload
   * is frozen: the same object answers every time the same token is verified.
   */
  verify(kind: TokenKind, token: string): Promise<Readonly<Record<string, unknown>> | undefined>
}

/** Freezes a parsed JSON value and everything in it. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item)
    Object.freeze(value)
  }
  return value
}

export async function createSigner(
  secret: Uint8Array<ArrayBuffer>,
  hmac: HmacFactory = webCryptoHmac,
): Promise<Signer> {
  const mac = await hmac(secret)
  const signed = (kind: TokenKind, body: string) => utf8(`${kind}:${body}`)
  // Tokens already verified (or signed here), so a client reusing one, or paging with the
  // cursor it was just given, does not pay for HMAC. Only valid tokens are kept; what a token
  // grants is still checked against the store each time.
  const verified: Record<TokenKind, Map<string, Readonly<Record<string, unknown>>>> = {
    authorization: new Map(),
    cursor: new Map(),
  }
  const keep = (kind: TokenKind, token: string, payload: Record<string, unknown>) => {
    const known = verified[kind]
    if (known.size >= VERIFIED_CACHE_SIZE) known.delete(known.keys().next().value!)
    const frozen = deepFreeze(payload)
    known.set(token, frozen)
    return frozen
  }
  return {
    async sign(kind, payload) {
      const text = JSON.stringify(payload)
      const body = toBase64Url(utf8(text))
      const token = `${body}.${toBase64Url(await mac(signed(kind, body)))}`
      // The payload as verifying the token would read it back.
      keep(kind, token, JSON.parse(text) as Record<string, unknown>)
      return token
    },
    async verify(kind, token) {
      const known = verified[kind]
      const payload = known.get(token)
      if (payload) return payload
      const dot = token.indexOf('.')
      if (dot < 0 || token.indexOf('.', dot + 1) >= 0) return undefined
      const body = token.slice(0, dot)
      const given = fromBase64Url(token.slice(dot + 1))
      const raw = fromBase64Url(body)
      if (!given || given.length !== 32 || !raw) return undefined
      if (!timingSafeEqual(await mac(signed(kind, body)), given)) return undefined
      try {
        const parsed: unknown = JSON.parse(fromUtf8(raw))
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined
        return keep(kind, token, parsed as Record<string, unknown>)
      } catch {
        return undefined
      }
    },
  }
}
