import type { KeyvTarget } from '../auth/abilities'
import { isAlive } from '../auth/credentials'
import { nowSeconds } from '../clock'
import { InvalidError, TooLargeError } from '../errors'
import { defineEndpoint, NONE, type CallContext, type Input } from '../runtime/endpoint'
import { measure } from '../runtime/size'
import { fromStored, toStored } from '../lang/stored'
import type { Value } from '../lang/value'
import { at, explained } from '../trace'

export const DEFAULT_BUCKET = 'default'
export const MAX_KEY_LENGTH = 1024
/** The longest bucket name. */
export const MAX_BUCKET_LENGTH = 256
/** The largest value `keyv.set` stores, measured as JSON. */
export const MAX_STORED_VALUE_BYTES = 1024 * 1024
const MAX_PAGE = 1000

const bucketArg = { type: 'string', default: DEFAULT_BUCKET, doc: 'the bucket' } as const
const keyArg = { type: 'any', doc: 'the key (or give it as the input)' } as const
const keyInput = { type: 'any', required: false, doc: 'the key, when not given as `key`' } as const

/** What the key-value endpoints read of a call to find the key it touches. */
interface KeyedCall {
  name: string
  input: Input
  args: { bucket: string; key?: Value | undefined }
}

function bucketOf(call: { name: string; args: { bucket: string } }): string {
  const { bucket } = call.args
  if (bucket === '' || bucket.length > MAX_BUCKET_LENGTH) {
    throw new InvalidError(
      `invalid argument \`bucket' for \`${call.name}' (must be 1 to ${MAX_BUCKET_LENGTH} characters)`,
    )
  }
  return bucket
}

/** The key, from the `key` argument or the input; integers are stored as strings. */
function keyOf(call: KeyedCall): string {
  const fromArg = call.args.key
  if (fromArg !== undefined && call.input !== NONE && call.input !== null) {
    throw new InvalidError(
      `\`${call.name}' takes its key either as the input or as \`key', not both`,
    )
  }
  const key: Value = fromArg ?? (call.input === NONE ? null : call.input)
  if (key === null)
    throw new InvalidError(`invalid argument \`key' for \`${call.name}' (is required)`)
  if (typeof key === 'number' && Number.isSafeInteger(key)) return String(key)
  if (typeof key !== 'string' || key === '' || key.length > MAX_KEY_LENGTH) {
    throw new InvalidError(
      `invalid argument \`key' for \`${call.name}' (must be a string of 1 to ${MAX_KEY_LENGTH} characters, or an integer)`,
    )
  }
  return key
}

const keyTarget = (call: KeyedCall): KeyvTarget => ({ bucket: bucketOf(call), key: keyOf(call) })

interface CursorPayload {
  s: string
  b: string
  p: string
  l: string
  r: number | null
}

/** `keyv`: a key-value store in buckets, with paged scans. */
export const keyvPackage = [
  defineEndpoint({
    name: 'keyv.set',
    summary: 'Stores `value` under the key; returns true.',
    input: keyInput,
    args: {
      bucket: bucketArg,
      key: keyArg,
      value: { type: 'any', required: true, doc: 'any value: JSON, a decimal or a timestamp' },
    },
    target: keyTarget,
    async run(call) {
      const { bucket, key } = call.target!
      const { value } = call.args
      if (measure(value, MAX_STORED_VALUE_BYTES, new WeakMap()) > MAX_STORED_VALUE_BYTES) {
        throw new TooLargeError(
          MAX_STORED_VALUE_BYTES,
          `the value for key \`${key}' is larger than the allowed ${MAX_STORED_VALUE_BYTES} bytes`,
        )
      }
      await call.ctx.store.commit([{ op: 'setKey', bucket, key, value: toStored(value) }])
      return true
    },
  }),
  defineEndpoint({
    name: 'keyv.get',
    summary: 'Reads the value stored under the key; null when there is none.',
    input: keyInput,
    args: { bucket: bucketArg, key: keyArg },
    target: keyTarget,
    async run(call) {
      const { bucket, key } = call.target!
      return fromStored((await call.ctx.store.getKey(bucket, key)) ?? null)
    },
  }),
  defineEndpoint({
    name: 'keyv.delete',
    summary: 'Removes the key; returns true.',
    input: keyInput,
    args: { bucket: bucketArg, key: keyArg },
    target: keyTarget,
    async run(call) {
      const { bucket, key } = call.target!
      await call.ctx.store.commit([{ op: 'deleteKey', bucket, key }])
      return true
    },
  }),
  defineEndpoint({
    name: 'keyv.scan',
    summary: 'One page of keys in key order; header x-cursor leads to the next page.',
    args: {
      bucket: bucketArg,
      prefix: { type: 'string', default: '', doc: 'only keys starting with this' },
      count: { type: 'integer', default: 250, doc: `keys per page, 1 to ${MAX_PAGE}` },
      total: { type: 'integer', doc: 'at most this many keys over all pages' },
      cursor: { type: 'string', doc: 'the x-cursor of the previous page' },
    },
    target: (call) => ({ bucket: bucketOf(call), key: call.args.prefix }),
    async run(call) {
      const { bucket } = call.target!
      const { prefix, count } = call.args
      if (count < 1 || count > MAX_PAGE) {
        throw new InvalidError(
          `invalid argument \`count' for \`keyv.scan' (must be 1 to ${MAX_PAGE})`,
        )
      }
      let after: string | undefined
      let remaining = call.args.total ?? null
      if (remaining !== null && remaining < 1) {
        throw new InvalidError("invalid argument `total' for `keyv.scan' (must be at least 1)")
      }
      const { cursor } = call.args
      if (cursor) {
        const page = await readCursor(call.ctx, cursor, bucket, prefix)
        after = page.l
        remaining = page.r
      }
      const size = remaining === null ? count : Math.min(count, remaining)
      const keys = await call.ctx.store.scanKeys(bucket, { prefix, after, limit: size + 1 })
      const more = keys.length > size
      const page = keys.slice(0, size)
      const next: CursorPayload | null = more
        ? {
            s: call.ctx.principal.secretId,
            b: bucket,
            p: prefix,
            l: page.at(-1)!,
            r: remaining === null ? null : remaining - size,
          }
        : null
      call.ctx.setHeader(
        'x-cursor',
        next && next.r !== 0 ? await call.ctx.signer.sign('cursor', next) : '',
      )
      return page
    },
  }),
]

async function readCursor(ctx: CallContext, cursor: string, bucket: string, prefix: string) {
  // On the wire every refusal reads alike, as `cursor is invalid`; the trace says which.
  const invalid = (why: string) =>
    explained(new InvalidError('cursor is invalid', 'invalid_cursor'), `cursor is invalid: ${why}`)
  const payload = (await ctx.signer.verify('cursor', cursor)) as Partial<CursorPayload> | undefined
  if (!payload || typeof payload.l !== 'string' || typeof payload.s !== 'string') {
    throw invalid(
      "its signature does not verify: it was changed, or is not an x-cursor this account's keyv.scan gave",
    )
  }
  if (payload.b !== bucket || payload.p !== prefix) {
    throw invalid(
      `it continues a scan of bucket \`${payload.b}' with prefix \`${payload.p}', not bucket \`${bucket}' with prefix \`${prefix}': repeat the same call with it`,
    )
  }
  const secret = await ctx.store.getSecret(payload.s)
  if (!secret) throw invalid(`its secret \`${payload.s}' is not in this account any more`)
  if (!isAlive(secret, nowSeconds(ctx.clock))) {
    throw invalid(
      `its secret \`${payload.s}' was rolled; the cursor died with it at ${at(secret.expiresAt!)}`,
    )
  }
  if (payload.s !== ctx.principal.secretId) {
    throw invalid(
      `it was issued under secret \`${payload.s}', and this call's credential descends from \`${ctx.principal.secretId}'`,
    )
  }
  return { l: payload.l, r: typeof payload.r === 'number' ? payload.r : null }
}
