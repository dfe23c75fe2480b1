/**
 * The client's own suite: it passes as it is. Run it under seeded chaos with
 * `CHAOS_SEED=1 npx vitest run examples/chaos-client`, and switch a planted bug on with
 * `BUGS=noBackoff` (or staleToken, trustTruncated, staleSecret, reuseCursor, noTimeout) to watch
 * chaos find it and shrink it.
 */
import { describe, it } from 'vitest'
import { useService } from 'service-playground/vitest'
import type { Bugs } from './client'
import { scenarios } from './scenarios'

const seed = process.env.CHAOS_SEED
const service = useService({
  ...(seed
    ? {
        chaos: {
          seed,
          runs: 50,
          kinds: ['throttle', 'expire', 'roll', 'truncate', 'status', 'network', 'delay', 'hang'],
        },
      }
    : {}),
})
const bugs = Object.fromEntries(
  (process.env.BUGS ?? '')
    .split(',')
    .filter(Boolean)
    .map((name) => [name, true]),
) as Bugs

describe('the key-value client', () => {
  for (const [name, scenario] of Object.entries(scenarios)) {
    it(name, () => scenario(service, bugs))
  }
})
