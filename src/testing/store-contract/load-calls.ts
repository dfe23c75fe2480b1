import type { createHarness } from '../engine-harness'

type Harness = Awaited<ReturnType<typeof createHarness>>

/** What one call answered. */
export interface LoadAnswer {
  status: number
  text: string
}

/**
 * The calls of the store's load check (`load.ts`) and its benchmark (`bench/store-load.ts`),
 * five kinds in turn: reverse with a secret key and with a token, a composition, a keyv write
 * to one of 50 keys, a scan. Authorizes once; `call(i)` makes the i-th.
 */
export async function loadCalls(h: Harness): Promise<(i: number) => Promise<LoadAnswer>> {
  const token = await h.authorize({ abilities: ['type', 'core', 'keyv?bucket=load'] })
  const kinds = [
    () => h.tuples('type.string.reverse', [['>>', ['%%', 'abc']]]),
    () => h.tuples('type.string.reverse', [['>>', ['%%', 'abc']]], { token }),
    () =>
      h.tuples(
        'core.exec',
        [
          [
            '$$',
            'proc',
            [
              '{}',
              ['>>', ['%%', 'ab']],
              ['()', 'type.string.reverse'],
              ['()', 'type.string.capitalize'],
            ],
          ],
        ],
        { token },
      ),
    (i: number) =>
      h.tuples(
        'keyv.set',
        [
          ['$$', 'bucket', 'load'],
          ['$$', 'key', `k${i % 50}`],
          ['$$', 'value', ['%%', i]],
        ],
        { token },
      ),
    () =>
      h.tuples(
        'keyv.scan',
        [
          ['$$', 'bucket', 'load'],
          ['$$', 'count', 10],
        ],
        { token },
      ),
  ]
  return (i) => kinds[i % kinds.length]!(i)
}
