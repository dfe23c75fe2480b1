import type { CredentialTrace } from '../../engine'

/**
 * Short headings for the engine's machine-readable codes. They name the kind of decision; the
 * sentence that says why is always the engine's own.
 */
const CODES: Record<string, string> = {
  missing_ability: 'No ability covers the endpoint',
  outside_limit: 'Outside the key-value limit',
  insecure_ability: 'Insecure ability without insecure: true',
  required: 'Required argument missing',
  not_coercible: 'Argument of the wrong type',
  invalid: 'Invalid request',
  unauthorized: 'Credential refused',
  undefined: 'Undefined endpoint',
  method_not_allowed: 'Method not allowed',
  timeout: 'Time limit',
  conflict: 'Conflict',
  too_large: 'Too large',
  unsupported_media_type: 'Unsupported content type',
  value_too_large: 'Value too large',
  fault: 'Engine fault',
  missing: 'No token',
  malformed: 'Malformed authorization header',
  unknown_token: 'Unknown token',
  bad_signature: 'Signature does not verify',
  expired: 'Authorization expired',
  secret_rolled: 'Secret rolled',
  secret_unknown: 'Secret gone',
  invalid_cursor: 'Cursor refused',
  not_a_proc: 'Not a procedure',
  too_deep: 'Nested too deep',
  too_many_calls: 'Too many calls',
  number_overflow: 'Number out of range',
  number_inexact: 'Number beyond 2^53, not exact',
  forbidden: 'Forbidden',
  body_incomplete: 'Body cut short',
  quota_exceeded: 'Account quota',
  rate_limited: 'Rate limit',
  injected_fault: 'Injected fault',
}

/** A heading for an error code; `undefined` when it has none (the code is then shown alone). */
export const codeLabel = (code: string): string | undefined => CODES[code]

const REASONS: Record<string, string> = {
  missing: 'token missing',
  malformed: 'malformed header',
  unknown_token: 'unknown token',
  bad_signature: 'signature does not verify',
  expired: 'expired',
  secret_rolled: 'its secret was rolled',
  secret_unknown: 'its secret is gone',
}

/** Why a credential was refused, in a few words. */
export const reasonLabel = (reason: string): string => REASONS[reason] ?? reason

const KINDS: Record<CredentialTrace['kind'], string> = {
  secret: 'Secret key',
  authorization: 'Authorization',
  none: 'No credential',
  unknown: 'Unknown token',
}

export const kindLabel = (kind: CredentialTrace['kind']): string => KINDS[kind]
