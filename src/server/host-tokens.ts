import { createHash, randomBytes } from 'node:crypto'
import { toBase64Url } from '../client/wire'
import { bearerToken, type Call } from '../engine'
import { refusal } from '../engine/wire/response'
import { sameSecret } from './gate'

/** A control token as a hosted account keeps it: its SHA-256, in hex. */
export const hash = (token: string) => createHash('sha256').update(token).digest('hex')
/** A new control token: `ct_` and 24 random bytes, starting with a letter (no flag reads it as one). */
export const newControlToken = () => `ct_${toBase64Url(randomBytes(24))}`
/** A new secret key: `sk_` and 32 random bytes, as the engine makes them. */
export const newSecretKey = () => `sk_${toBase64Url(randomBytes(32))}`

/**
 * Whether `call` carries `controlToken` (or the token whose hash is `also`); any call does when
 * the server has no control token.
 */
export function holdsToken(call: Call, controlToken: string | undefined, also?: string): boolean {
  if (controlToken === undefined) return true
  const given = bearerToken(call.header('authorization'))
  if (given === undefined) return false
  return sameSecret(given, controlToken) || (also !== undefined && sameSecret(hash(given), also))
}

/** The 401 of a control plane asked without its token. */
export const needsToken = () =>
  refusal(
    401,
    'the account control plane needs the control token: send authorization: bearer <control token>, as serve printed it at start (or as POST /_accounts returned it)',
  )
