/**
 * The wire's small words, one home each, for every reader outside the engine (the playground,
 * conformance and its contracts, shadow mode, the kit, the server): base64 and base64url, a base
 * URL without its trailing slash, and the token of a bearer header. Browser-safe. Where the
 * engine reads the same thing, this is the engine's own reader, re-exported, so that the two
 * cannot drift.
 */
export {
  base64ToText,
  fromBase64,
  fromBase64Url,
  toBase64,
  toBase64Url,
} from '../engine/wire/base64'
export { basePathOf, trimBaseUrl } from '../engine/wire/base-url'
export { bearerToken, readBearer, type Bearer } from '../engine/auth/bearer'
export { callTuples, type CallTuple } from '../engine/wire/call-tuples'
