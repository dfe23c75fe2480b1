import { fromBase64Url, fromUtf8, toBase64Url, utf8 } from './bytes'

/**
 * Signed, self-describing strings (authorizations and cursors): `<payload>.<signature>`,
 * both base64url, the signature an HMAC-SHA-256 over the kind and the payload text. WebCrypto
 * verifies in constant time; nothing in a payload is read before its signature checks out.
 */
const VERIFIED_CACHE_SIZE = 1024

export type TokenKind = 'authorization' | 'cursor'

export interface Signer {
  sign(kind: TokenKind, payload: object): Promise<string>
  /** The payload, or `undefined` for anything not signed by this key as this kind. */
  verify(kind: TokenKind, token: string): Promise<Record<string, unknown> | undefined>
}

export async function createSigner(secret: Uint8Array<ArrayBuffer>): Promise<Signer> {
  const key = await crypto.subtle.importKey(
    'raw',
    secret,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  )
  const signed = (kind: TokenKind, body: string) => utf8(`${kind}:${body}`)
  // Tokens already verified, so a client reusing one does not pay for HMAC on every call.
  // Only successes are kept; what a token grants is still checked against the store each time.
  const verified = new Map<string, Record<string, unknown>>()
  return {
    async sign(kind, payload) {
      const body = toBase64Url(utf8(JSON.stringify(payload)))
      const signature = await crypto.subtle.sign('HMAC', key, signed(kind, body))
      return `${body}.${toBase64Url(new Uint8Array(signature))}`
    },
    async verify(kind, token) {
      const cacheKey = `${kind}:${token}`
      const known = verified.get(cacheKey)
      if (known) return structuredClone(known)
      const parts = token.split('.')
      if (parts.length !== 2) return undefined
      const [body, signature] = parts as [string, string]
      const mac = fromBase64Url(signature)
      const raw = fromBase64Url(body)
      if (!mac || mac.length !== 32 || !raw) return undefined
      if (!(await crypto.subtle.verify('HMAC', key, mac, signed(kind, body)))) return undefined
      try {
        const payload: unknown = JSON.parse(fromUtf8(raw))
        if (payload === null || typeof payload !== 'object' || Array.isArray(payload))
          return undefined
        if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!)
        verified.set(cacheKey, payload as Record<string, unknown>)
        return structuredClone(payload as Record<string, unknown>)
      } catch {
        return undefined
      }
    },
  }
}
