import { headerOf, mintedToken } from '../../client/exchange'
import type { CredentialTrace, ExchangeRecord } from '../../engine'
import { bearerToken, fromBase64Url } from '../../client/wire'
import { credentialOf } from '../../engine/trace'
import { TOKEN_SHAPE } from './answer'
import type { SecretInfo } from './record-context'

/**
 * What an authorization of the engine's own says of itself, read without its signature
 * checked: only to make a token like it again in the contract (a `mint` step), never to trust
 * it; `verify` asks the service itself. `undefined` for any other token.
 */
function readAuthorization(token: string): Partial<CredentialTrace> | undefined {
  if (!TOKEN_SHAPE.test(token)) return undefined
  const raw = fromBase64Url(token.slice(0, token.indexOf('.')))
  if (!raw) return undefined
  try {
    const p = JSON.parse(new TextDecoder().decode(raw)) as Record<string, unknown>
    if (typeof p.s !== 'string' || !Array.isArray(p.a)) return undefined
    if (!p.a.every((a) => typeof a === 'string') || typeof p.t !== 'number') return undefined
    return {
      secretId: p.s,
      abilities: p.a as string[],
      insecure: p.i === true,
      createdAt: p.t,
      expiresAt: typeof p.e === 'number' ? p.e : null,
    }
  } catch {
    return undefined
  }
}

/** What the HAR shows of a credential the service took. */
const credential = (fields: Partial<CredentialTrace>): CredentialTrace =>
  credentialOf({ decision: 'accepted', ...fields })

/** An outcome code marking a record the classification left out. */
export const LEFT_OUT = 'har_left_out'

/**
 * Gives each record the credential its token was, as far as the HAR shows: made by an
 * `auth.create` in it, an authorization of the engine's (read from itself), a secret (taken by
 * the service, and not an authorization), or unknown (refused). A success with an authorization
 * that cannot be read is left out (told to `leave`). Returns the secrets, for the recorder never to copy.
 */
export function classifyTokens(
  records: ExchangeRecord[],
  leave: (record: ExchangeRecord, why: string) => void,
): SecretInfo[] {
  const minted = new Set<string>()
  const secrets = new Map<string, SecretInfo>()
  for (const r of records) {
    const token = bearerToken(headerOf(r.request.headers, 'authorization'))
    if (token !== undefined) {
      const read = readAuthorization(token)
      const refused = r.response.status === 401
      if (minted.has(token) || read) {
        r.trace.credential = credential({ kind: 'authorization', ...read })
      } else if (TOKEN_SHAPE.test(token) && !refused) {
        r.trace.outcome.code = LEFT_OUT
        leave(
          r,
          'its authorization was made before the HAR began, by a service whose tokens cannot be read here; record the HAR from the call that makes it',
        )
      } else if (!refused) {
        let secret = secrets.get(token)
        if (!secret) {
          secret = { id: `har-secret-${secrets.size + 1}`, key: token }
          secrets.set(token, secret)
        }
        r.trace.credential = credential({ kind: 'secret', secretId: secret.id! })
      }
    }
    const made = mintedToken(r)
    if (made !== undefined) minted.add(made)
  }
  // Tokens the service refused are never copied either: each is forged in the contract.
  const refusedTokens = records.flatMap((r) => {
    const token = bearerToken(headerOf(r.request.headers, 'authorization'))
    return token !== undefined && !secrets.has(token) ? [{ key: token }] : []
  })
  return [...secrets.values(), ...refusedTokens]
}
