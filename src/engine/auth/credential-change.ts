// The change that would have let a refused credential in: a token sent right, or one used in
// time or minted again (decision 056, decision 087).

import { clockTime } from '../clock'
import { forCode } from './code-change'
import { remintPhrase, type Counterfactual, type Remint } from './counterfactual-shape'

const at = clockTime

/** What a credential trace knows of the token it refused. */
export interface RefusedCredential {
  kind: 'none' | 'secret' | 'authorization' | 'unknown'
  reason: string
  secretId: string | null
  expiresAt: number | null
  secretExpiresAt: number | null
}

/** The remint a refused credential needs: its secret dead or rolling, its expiry set. */
function remintOf(refused: RefusedCredential): Remint {
  return {
    liveSecret:
      refused.reason === 'secret_rolled' ||
      refused.reason === 'secret_unknown' ||
      refused.secretExpiresAt !== null,
    laterExpiry: refused.reason === 'expired' || refused.expiresAt !== null,
  }
}

/** The change that would have let a refused token in. */
export function forCredential(refused: RefusedCredential): Counterfactual {
  const { reason } = refused
  switch (reason) {
    case 'missing':
      return {
        code: reason,
        change: 'send_token',
        sentence:
          'send the header `authorization: bearer <token>` with a secret key of this account or an authorization made from one',
      }
    case 'malformed':
      return {
        code: reason,
        change: 'send_token',
        sentence:
          'write the header as `authorization: bearer <token>`: the word bearer, a space, the token',
      }
    case 'unknown_token':
      return {
        code: reason,
        change: 'send_token',
        sentence:
          "use a secret key this account holds, or an authorization auth.create returned (an authorization's text holds a dot)",
      }
    case 'bad_signature':
      return {
        code: reason,
        change: 'send_token',
        sentence:
          'send the authorization exactly as auth.create returned it, from this account since its last reset, or mint a new one',
      }
    case 'expired': {
      // The first cause in time: it expired before any roll of its secret (decision 087). Minted
      // again, it needs a later expiry, and a live secret too when its own rolls.
      const remint = remintOf(refused)
      return {
        code: reason,
        change: 'use_before',
        ...(refused.expiresAt === null ? {} : { before: refused.expiresAt }),
        remint,
        sentence: `called before ${refused.expiresAt === null ? 'its expiry' : at(refused.expiresAt)} it would have passed; or mint it again ${remintPhrase(remint)}${rollNote(refused)}`,
      }
    }
    case 'secret_rolled': {
      if (refused.kind === 'secret') {
        return {
          code: reason,
          change: 'use_before',
          ...(refused.secretExpiresAt === null ? {} : { before: refused.secretExpiresAt }),
          sentence: `called before ${refused.secretExpiresAt === null ? 'the roll' : at(refused.secretExpiresAt)}, when the roll of \`${refused.secretId}' took effect, it would have passed; use the secret that replaced it`,
        }
      }
      const remint = remintOf(refused)
      return {
        code: reason,
        change: 'use_before',
        ...(refused.secretExpiresAt === null ? {} : { before: refused.secretExpiresAt }),
        remint,
        sentence: `called before ${refused.secretExpiresAt === null ? 'the roll' : at(refused.secretExpiresAt)}, when the roll of its secret \`${refused.secretId}' took effect, it would have passed; or mint it again ${remintPhrase(remint)}${expiryNote(refused)}`,
      }
    }
    case 'secret_unknown': {
      const remint = remintOf(refused)
      return {
        code: reason,
        change: 'use_live_secret',
        remint,
        sentence: `its secret \`${refused.secretId}' is gone from this account: mint it again from a secret the account holds${remint.laterExpiry ? ", with a later `expiry' or a longer `ttl'" : ''}${expiryNote(refused)}`,
      }
    }
    default:
      return forCode(reason, undefined)
  }
}

/** After an expiry's remint: when its secret's roll takes effect, which a new token must outlive. */
const rollNote = (refused: RefusedCredential) =>
  refused.secretExpiresAt === null
    ? ''
    : ` (the roll of its secret \`${refused.secretId}' takes effect at ${at(refused.secretExpiresAt)})`

/** After a roll's remint: its own expiry, which a new token minted the same way would meet. */
const expiryNote = (refused: RefusedCredential) =>
  refused.expiresAt === null ? '' : ` (its own expiry was ${at(refused.expiresAt)})`
