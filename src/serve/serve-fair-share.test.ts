import { afterAll, describe, expect, it } from 'vitest'
import { post, startServe, stopAll, TUPLES } from '../testing/serve-process'

const CONTROL = 'control-token-fair-share-0123'

afterAll(stopAll)

async function newAccount(url: string) {
  const made = await fetch(`${url}/_accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${CONTROL}` },
  })
  expect(made.status).toBe(201)
  return (await made.json()) as { baseUrl: string; secret: string }
}

/** `times` times, reverse a 20 kB string and measure it: work in proportion to `times`. */
const work = (times: number) =>
  JSON.stringify([
    ['>>', Array.from({ length: times }, (_, i) => i)],
    ['$$', 'big', 'x'.repeat(20_000)],
    [
      '$$',
      'proc',
      ['{}', ['>>', ['@@', 'big']], ['()', 'type.string.reverse'], ['()', 'type.string.length']],
    ],
  ])

describe('accounts on one serve share it fairly', () => {
  it("gives a second account half the process, not one request's share: its request twice as heavy as each of 16 of the first's ends before most of them", async () => {
    const { url } = await startServe(['--control-token', CONTROL])
    const [a, b] = [await newAccount(url), await newAccount(url)]
    const order: string[] = []
    const send = (account: { baseUrl: string; secret: string }, name: string, times: number) =>
      post(`${account.baseUrl}/enum/map`, account.secret, work(times), TUPLES).then(
        async (response) => {
          await response.arrayBuffer()
          order.push(name)
          return response.status
        },
      )
    const burst = Array.from({ length: 16 }, () => send(a, 'a', 100))
    // B's ping is answered while A's burst runs.
    const ping = await post(`${b.baseUrl}/core/ping`, b.secret, '')
    expect([ping.status, await ping.text()]).toEqual([200, 'true'])
    expect(await send(b, 'b', 200)).toBe(200)
    const statuses = await Promise.all(burst)
    // A's own: answered, or 408 once one waited past the time limit behind A's others.
    expect(statuses.filter((status) => status !== 200 && status !== 408)).toEqual([])
    // Shared per request, 17 requests at 1/17 each, B's (the heaviest, and the last to come)
    // would end last. Shared per account, B has every other turn: it ends after about two of
    // A's, A's others in turn after it.
    expect(order.slice(order.indexOf('b') + 1).length).toBeGreaterThanOrEqual(10)
  }, 120_000)
})
