import { expect } from 'vitest'
import { callTuples } from './serve-process'

/**
 * Accounts deleted while their requests are in flight, on running `serve` processes: each
 * round makes an account through `urls[0]`, sends `requests` at once to it through every URL
 * in turn (writes, reads, compositions that take a while), deletes it through `urls[0]`
 * while they run, and collects every status. What must hold: no 500, ever; every request
 * answered (200 before the delete, or 404 once the account is gone); the account gone from
 * every process.
 */
export async function deleteInFlight(
  urls: string[],
  control: string,
  { rounds = 3, requests = 60 } = {},
): Promise<number[]> {
  const statuses: number[] = []
  for (let round = 0; round < rounds; round++) {
    const made = await fetch(`${urls[0]}/_accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${control}` },
    })
    expect(made.status).toBe(201)
    const { id, secret } = (await made.json()) as { id: string; secret: string }
    // What the reads below read is there before they run.
    const seeded = await callTuples(`${urls[0]}/a/${id}`, secret, 'keyv.set', [
      ['$$', 'key', 'k'],
      ['$$', 'value', 'seed'],
    ])
    expect(seeded.status).toBe(200)
    const bodies: Array<[string, unknown[]]> = [
      [
        'keyv.set',
        [
          ['$$', 'key', 'k'],
          ['$$', 'value', 'x'.repeat(1000)],
        ],
      ],
      ['keyv.get', [['$$', 'key', 'k']]],
      [
        'core.exec',
        [
          [
            '$$',
            'proc',
            [
              '{}',
              ['()', 'keyv.set', ['>>', 'a'], ['$$', 'value', 1]],
              ['()', 'core.sleep', ['$$', 'seconds', 0.05]],
              ['()', 'keyv.get', ['>>', 'a']],
            ],
          ],
        ],
      ],
      [
        'enum.map',
        [
          ['>>', Array.from({ length: 200 }, (_, i) => i)],
          ['$$', 'proc', ['{}', ['()', 'keyv.get', ['>>', 'k']], ['()', 'type.string.length']]],
        ],
      ],
    ]
    const inFlight = Array.from({ length: requests }, (_, i) => {
      const [name, body] = bodies[i % bodies.length]!
      const base = `${urls[i % urls.length]}/a/${id}`
      return callTuples(base, secret, name, body).then(
        ({ status }) => status,
        () => 0,
      )
    })
    // Deleted once the first answers are back: the rest are under way.
    await Promise.race(inFlight)
    const removed = await fetch(`${urls[0]}/_accounts/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${control}` },
    })
    expect(removed.status).toBe(204)
    statuses.push(...(await Promise.all(inFlight)))
    for (const url of urls) {
      expect((await callTuples(`${url}/a/${id}`, secret, 'core.ping', [])).status).toBe(404)
    }
  }
  return statuses
}

/** The statuses `deleteInFlight` may see: 200 before the delete, 404 after it. */
export function expectOnlyAnswered(statuses: number[]): void {
  expect(statuses.filter((status) => status !== 200 && status !== 404)).toEqual([])
}
