import type { Mutation, SecretRecord } from '../engine/store'
import { StoreConflictError } from '../engine/store'

/** An `expectSecret` precondition against the secret as stored; throws when it does not hold. */
export function checkExpectedSecret(
  secret: SecretRecord | undefined,
  expected: Mutation & { op: 'expectSecret' },
): void {
  if (!secret || secret.rolledTo !== expected.rolledTo || secret.expiresAt !== expected.expiresAt) {
    throw new StoreConflictError(`Secret ${expected.id} is not in the expected state`)
  }
}
