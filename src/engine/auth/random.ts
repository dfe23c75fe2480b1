import { toBase64Url, utf8 } from '../bytes'
import { webCryptoHmac, type Hmac, type HmacFactory } from './hmac'

/**
 * Every value the engine draws at random goes through here (decision 086). An account without
 * a seed draws from the platform (`crypto.getRandomValues`), as it always did. A **seeded**
 * account draws from a generator keyed by its seed **and** its own secret signing key: HMAC-
 * SHA-256 as a pseudorandom function in counter mode (as HKDF-Expand and NIST SP 800-108 use
 * it), so that the same actions on the same starting state draw the same bytes, while the seed
 * alone — without the signing key, which never leaves the account — lets no one derive any of
 * them. `src/engine/random.test.ts` enumerates every draw in the engine and fails on one that
 * comes from anywhere else.
 */

/**
 * What a value is drawn for. Each purpose is its own sequence, keyed by a count the caller
 * names (`context`) that never repeats within one timeline of the account, so two draws of one
 * purpose never meet.
 */
export type Purpose =
  /** A secret's id and key: keyed by how many secrets the account holds when it is made. */
  | 'secret-id'
  | 'secret-key'
  /** An authorization's nonce: keyed by the exchange's step and the draws made in it. */
  | 'nonce'
  /** Whether a call meets a fault rule with a probability: keyed by the step and the rule. */
  | 'fault-draw'
  /** A fault rule's id: keyed by how many rules the account has been given. */
  | 'fault-id'
  /** A checkpoint's id: keyed by how many checkpoints the engine has taken. */
  | 'checkpoint-id'
  /** A watch's id: keyed by the account's time and how many watches it holds. */
  | 'watch-id'

/**
 * The only draws that never come from the seed, each with why: they key the generator itself,
 * or never leave the engine's memory, or mark a change without ever being answered.
 */
export type PlatformDraw =
  /** The account's signing key: the generator's own key; a seed must not predict it. */
  | 'signing-key'
  /** The key of the in-memory index that finds a secret by its key (decision 002). */
  | 'index-key'
  /** The marker that tells other tabs and processes the secrets changed: never answered. */
  | 'secrets-version'

/** Bytes from the platform's generator: only for a `PlatformDraw`. */
export function platformBytes(_draw: PlatformDraw, length: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(length))
}

/** Bytes now, or once the platform's HMAC has them (WebCrypto's is asynchronous). */
export type Maybe<T> = T | Promise<T>

/** A value computed from `value` without waiting when `value` is already there. */
export function andThen<T, R>(value: Maybe<T>, next: (value: T) => Maybe<R>): Maybe<R> {
  return value instanceof Promise ? value.then(next) : next(value)
}

/** An account's source of random values: the platform's, or its seeded generator. */
export interface Random {
  /** The account's seed; `undefined` when it draws from the platform. */
  readonly seed: string | undefined
  /** `length` bytes for `purpose`, keyed (when seeded) by `context`. */
  bytes(purpose: Purpose, context: string, length: number): Maybe<Uint8Array>
}

/** The platform's generator: what an account without a seed draws from. */
export const platformRandom: Random = {
  seed: undefined,
  bytes: (_purpose, _context, length) => crypto.getRandomValues(new Uint8Array(length)),
}

/** What separates the seed's key from every other use of the signing key. */
const SEED_LABEL = 'service-playground/seed\u0000'

/**
 * The generator of a seeded account: `K = HMAC(signingKey, label ‖ seed)`, then each block of
 * a draw `HMAC(K, purpose ‖ 0 ‖ context ‖ 0 ‖ block)`. Under `node:crypto`'s HMAC every draw
 * is computed at once; under WebCrypto's it is a promise.
 */
export function seededRandom(
  seed: string,
  signingKey: Uint8Array<ArrayBuffer>,
  hmac: HmacFactory = webCryptoHmac,
): Maybe<Random> {
  return andThen(hmac(signingKey), (keyed: Hmac) =>
    andThen(keyed(utf8(`${SEED_LABEL}${seed}`)), (derived) =>
      andThen(hmac(new Uint8Array(derived)), (mac: Hmac): Random => {
        const block = (purpose: Purpose, context: string, index: number) =>
          mac(utf8(`${purpose}\u0000${context}\u0000${index}`))
        return {
          seed,
          bytes(purpose, context, length) {
            const blocks: Array<Maybe<Uint8Array>> = []
            for (let i = 0; i * 32 < length; i++) blocks.push(block(purpose, context, i))
            const join = (parts: Uint8Array[]) => {
              const out = new Uint8Array(length)
              parts.forEach((part, i) => out.set(part.subarray(0, length - i * 32), i * 32))
              return out
            }
            return blocks.some((part) => part instanceof Promise)
              ? Promise.all(blocks).then(join)
              : join(blocks as Uint8Array[])
          },
        }
      }),
    ),
  )
}

/** `bytes` as base64url behind a prefix: an id or a key that starts with a letter. */
export const prefixed = (prefix: string, bytes: Maybe<Uint8Array>): Maybe<string> =>
  andThen(bytes, (drawn) => `${prefix}${toBase64Url(drawn)}`)

/** A number in [0, 1) from four drawn bytes. */
export const unit = ([a, b, c, d]: Uint8Array): number =>
  (((a! << 24) >>> 0) + (b! << 16) + (c! << 8) + d!) / 2 ** 32

/** The most characters a seed has. */
export const MAX_SEED_LENGTH = 128

/**
 * A seed as given (a text of 1 to 128 characters without control characters, or a whole
 * number, which stands for its decimal text), or a message saying what a seed is.
 */
export function readSeed(value: unknown): string | { problem: string } {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value)
  if (
    typeof value === 'string' &&
    value.length >= 1 &&
    value.length <= MAX_SEED_LENGTH &&
    // eslint-disable-next-line no-control-regex
    !/[\u0000-\u001f\u007f]/.test(value)
  ) {
    return value
  }
  return {
    problem: `\`seed' must be a text of 1 to ${MAX_SEED_LENGTH} characters (no control characters) or a whole number from 0, such as "run-42" or 42; got ${describe(value)}`,
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  if (typeof value === 'string') return `a text of ${value.length} characters`
  if (typeof value === 'number') return `the number ${value}`
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`
}
