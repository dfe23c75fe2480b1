import type { Ability } from './abilities'

/** Who is calling: a secret (everything) or an authorization (its abilities). */
export type Principal =
  | { kind: 'secret'; secretId: string }
  | {
      kind: 'authorization'
      secretId: string
      abilities: readonly Ability[]
      insecure: boolean
      expiresAt: number | null
    }
